import { AsYouType } from 'libphonenumber-js';
import type { Contract, PlanName } from '../contract.js';
import { ApiError } from './errors.js';
import { RESERVED_LABELS } from './profile-fields.js';
import { parsePage } from './sites.js';

/**
 * The account holder's side of the rules (sections 5, 8.4, 8.7): what the dashboard refuses
 * before it saves anything. The HTTP API never answers these codes and the specification gives
 * them no status; this server uses 400 for a value of the wrong shape and 403 for a plan quota
 * (said so in openapi/back-office.yaml). These bounds are dashboard rules, not limits of the agent
 * HTTP API, so they live here and nowhere else; the plan quota is read from the document.
 */

/** Section 8.7: an API key's name, counted after trimming. */
export const API_KEY_NAME_MAX = 200;
/** Section 8.7: a saved login's username and password. */
export const LOGIN_FIELD_MIN = 4;
/** Section 8.4: extra sign-in sites per login, counted after reduction to hosts. */
export const EXTRA_SITES_MAX = 10;
/** Section 8.7: address and identity labels. */
export const PROFILE_LABEL = /^[a-z0-9]{1,16}$/;
/** Section 8.7: digits of a phone number after the country code, and in all. */
export const PHONE_NATIONAL_MIN = 4;
export const PHONE_TOTAL_MAX = 15;
/** Section 8.2: the spending limits of an agent card. */
export const SPENDING_LIMITS = ['perTransaction', 'perDay', 'perWeek', 'per30Days'] as const;
export type SpendingLimits = Partial<Record<(typeof SPENDING_LIMITS)[number], number | null>>;

const length = (s: string) => [...s].length;

/** The name to store: trimmed, at most 200 characters (`api_key_label_too_long`). */
export function apiKeyName(name: string): string {
  const trimmed = name.trim();
  if (length(trimmed) > API_KEY_NAME_MAX) {
    throw new ApiError(400, 'api_key_label_too_long', `An API key name has at most ${API_KEY_NAME_MAX} characters after trimming.`);
  }
  return trimmed;
}

export function checkLoginUsername(username: string): void {
  if (length(username) < LOGIN_FIELD_MIN) {
    throw new ApiError(400, 'login_username_too_short', `A saved login's username has at least ${LOGIN_FIELD_MIN} characters.`);
  }
}

export function checkLoginPassword(password: string): void {
  if (length(password) < LOGIN_FIELD_MIN) {
    throw new ApiError(400, 'login_password_too_short', `A saved login's password has at least ${LOGIN_FIELD_MIN} characters.`);
  }
}

/** A site as a lowercase host; `invalid_website` when it names no registrable domain. */
export function siteHost(site: string): string {
  const parsed = parsePage(site);
  if (!parsed) throw new ApiError(400, 'invalid_website', `"${site}" is not a site with a registrable domain.`);
  return parsed.host;
}

/** A login's registered site as its registrable domain (section 2.1). */
export function loginWebsite(site: string): string {
  const parsed = parsePage(site);
  if (!parsed) throw new ApiError(400, 'invalid_website', `"${site}" is not a site with a registrable domain.`);
  return parsed.domain;
}

/**
 * Extra sign-in sites reduced to distinct hosts: `https://shop.acme.com/login` and
 * `shop.acme.com` are one site. More than ten is refused as a whole, so nothing is saved.
 */
export function extraSiteHosts(sites: string[]): string[] {
  const hosts = [...new Set(sites.map(siteHost))];
  if (hosts.length > EXTRA_SITES_MAX) {
    throw new ApiError(
      400,
      'login_extra_sites_limit',
      `A login has at most ${EXTRA_SITES_MAX} extra sign-in sites after reduction to hosts; ${hosts.length} were given and nothing was saved.`,
    );
  }
  return hosts;
}

/** Address and identity labels: 1 to 16 lowercase letters or digits, not a reserved word. */
export function checkProfileLabel(label: string): void {
  if (!PROFILE_LABEL.test(label)) {
    throw new ApiError(400, 'address_label_shape', 'A label has 1 to 16 lowercase letters or digits.');
  }
  if (RESERVED_LABELS.has(label)) {
    throw new ApiError(400, 'address_label_reserved', `"${label}" is a reserved word and cannot be a label.`);
  }
}

export interface Phone {
  /** `+<country code><national number>`, digits only after the plus. */
  e164: string;
  countryCode: string;
  national: string;
}

/**
 * A phone number in international form, `+<country code> <number>` (spaces, dots, dashes and
 * brackets allowed between digits). libphonenumber-js finds where the country code ends; when
 * the caller separated a first group, it must be that country code (`+3 1234` is not `+31 234`).
 */
export function parsePhone(input: string): Phone {
  const refuse = (why: string) =>
    new ApiError(
      400,
      'phone_shape',
      `${why} A phone number is "+<country code> <number>" with at least ${PHONE_NATIONAL_MIN} digits after the country code and at most ${PHONE_TOTAL_MAX} digits in all.`,
    );
  const text = input.trim();
  if (!/^\+\d[\d\s().-]*$/.test(text)) throw refuse('The number is not in international form.');
  const digits = text.replace(/\D/g, '');
  const typed = new AsYouType();
  typed.input(`+${digits}`);
  const countryCode = typed.getCallingCode();
  if (!countryCode) throw refuse('The country code is unknown.');
  const firstGroup = /^\+(\d+)[\s().-]/.exec(text)?.[1];
  if (firstGroup !== undefined && firstGroup !== countryCode && firstGroup.length <= 3) {
    throw refuse(`+${firstGroup} is not a country code.`);
  }
  const national = digits.slice(countryCode.length);
  if (national.length < PHONE_NATIONAL_MIN) throw refuse('Too few digits after the country code.');
  if (digits.length > PHONE_TOTAL_MAX) throw refuse('Too many digits.');
  return { e164: `+${digits}`, countryCode, national };
}

/** Section 8.2: each spending limit is greater than zero, or blank (null or absent: no limit). */
export function checkSpendingLimits(limits: SpendingLimits): void {
  for (const name of SPENDING_LIMITS) {
    const value = limits[name];
    if (value === null || value === undefined) continue;
    if (!(value > 0) || !Number.isFinite(value)) {
      throw new ApiError(
        400,
        'agent_card_cap_not_enforceable',
        `The spending limit ${name} must be greater than zero, or left blank for no limit.`,
      );
    }
  }
}

/** Section 8.1: the plan's agent-card count (`x-plans` `agentCards`; null is unlimited). */
export function checkAgentCardQuota(contract: Contract, plan: PlanName, agentCards: number): void {
  const quota = contract.plans[plan]?.agentCards;
  if (quota === null) return;
  if (typeof quota !== 'number') throw new Error(`x-plans has no agentCards for plan ${plan}`);
  if (agentCards >= quota) {
    throw new ApiError(403, 'plan_quota_reached', `The ${plan} plan allows ${quota} agent card${quota === 1 ? '' : 's'}; upgrade for more.`);
  }
}
