import { transaction } from '../../store/db.js';
import { getAccount } from '../../store/accounts.js';
import { countAgentCards, insertCard } from '../../store/cards.js';
import { tokensOf } from '../../store/tokens.js';
import { checkAgentCardQuota, checkSpendingLimits, loginWebsite, siteHost, type SpendingLimits } from '../dashboard.js';
import { ApiError } from '../errors.js';
import { requireAccount, type BackOfficeDeps } from './lookups.js';

/** The back office's cards (tag Cards): addCard. */

export interface NewCard {
  number: string;
  anySite: boolean;
  allow?: string[];
  block?: string[];
  agent?: boolean;
  limits?: SpendingLimits;
}

export async function addCard({ db, sealer, clock, contract }: BackOfficeDeps, accountId: string, card: NewCard) {
  const id = (await requireAccount(db, accountId)).id;
  const agent = card.agent ?? false;
  if (card.anySite && (card.allow ?? []).length > 0) {
    throw new ApiError(400, 'bad_request', 'A card for any site has no allow list; send anySite: false with the allow list.');
  }
  if (card.limits !== undefined && !agent) throw new ApiError(400, 'bad_request', 'Spending limits apply only to agent cards.');
  // An allow list matches by registrable domain (as the catalog does); a block list names hosts.
  const allow = [...new Set((card.allow ?? []).map(loginWebsite))];
  const block = [...new Set((card.block ?? []).map(siteHost))];
  if (card.limits) checkSpendingLimits(card.limits);
  // Immediate, so two requests cannot both take the plan's last agent-card slot.
  const cardId = await transaction(db, async (db) => {
    if (agent) checkAgentCardQuota(contract, (await getAccount(db, id))!.plan, await countAgentCards(db, id));
    return insertCard(db, sealer, {
      accountId: id,
      number: card.number,
      anySite: card.anySite,
      allow,
      block,
      agent,
      limits: agent ? { ...card.limits } : null,
      now: clock.now(),
    });
  });
  const tokens = await tokensOf(db, 'card', cardId);
  return { cardId, anySite: card.anySite, agent, tokens: { number: tokens.number, securityCode: tokens.securityCode } };
}
