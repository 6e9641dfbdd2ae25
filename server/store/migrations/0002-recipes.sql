-- The checkout-recipe registry's contributions (sections 2.2, 2.4, 3, 4.3, 4.4). The release
-- recipes ship as a file (server/registry/) and are never stored here.

-- One row per accepted POST /v1/recipes. The recipe goes live when the row is written; the
-- screening verdict and a maintainer's decision are written onto the same row later.
CREATE TABLE recipe_submissions (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_id TEXT REFERENCES api_keys(id) ON DELETE SET NULL,
  recipe_key TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('merchant', 'platform', 'signup', 'signup-platform')),
  platform TEXT,
  -- The recipe as submitted (JSON, `$` members already removed), status and evidence included.
  body TEXT NOT NULL,
  -- The status the recipe is live at: the submitted one, except that `verified` goes live as
  -- `unverified`; only a maintainer's verification sets `verified`.
  live_status TEXT NOT NULL CHECK (live_status IN ('verified', 'partial', 'unverified', 'dead-end')),
  -- Published as the recipe's `evidence` once a maintainer verifies it; never taken from the body.
  evidence TEXT,
  note TEXT,
  verification_requested INTEGER NOT NULL CHECK (verification_requested IN (0, 1)),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'merged', 'rejected', 'needs_human')),
  -- Screening findings and maintainer decisions: a JSON array of fixed texts, empty while pending.
  verdict TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  -- When this row last became the live version of its key: its creation, or a maintainer's merge.
  live_since INTEGER NOT NULL
) STRICT;
CREATE INDEX recipe_submissions_account ON recipe_submissions(account_id);
CREATE INDEX recipe_submissions_key ON recipe_submissions(recipe_key, live_since);
CREATE INDEX recipe_submissions_pending ON recipe_submissions(status) WHERE status = 'pending';

-- The contributed recipes that are live: per key, the newest submission that is not rejected
-- (newest by live_since, then by insertion). Derived rather than kept, so a rejection, a
-- maintainer's merge or an account's deletion (which cascades to its submissions) can never
-- leave a stale live recipe behind; the previous contribution of the key, if any, comes back.
CREATE VIEW contributed_recipes AS
SELECT id AS submission_id, recipe_key AS key, kind, platform, live_status AS status, body, evidence
FROM (
  SELECT s.*, ROW_NUMBER() OVER (PARTITION BY s.recipe_key ORDER BY s.live_since DESC, s.rowid DESC) AS newest
  FROM recipe_submissions AS s
  WHERE s.status <> 'rejected'
)
WHERE newest = 1;
