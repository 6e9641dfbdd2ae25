-- A rotated signing secret keeps signing beside its successor until `previous_until` (the overlap
-- of a rotation), so a receiver can change secrets without refusing a delivery. Both are set
-- together by a rotation; the secret is sealed like every other secret.
ALTER TABLE card_webhooks ADD COLUMN previous_secret BLOB;
ALTER TABLE card_webhooks ADD COLUMN previous_until INTEGER CHECK ((previous_secret IS NULL) = (previous_until IS NULL));

-- While a delivery waits for its attempt's outcome: when that attempt is over at the latest, by the
-- real clock. One still waiting after that was cut off by a stop or a crash, and is recorded as
-- `interrupted` (a second server process on the file may still be running its own attempts, so
-- start-up alone cannot tell). A delivery left waiting before this column existed is long over.
ALTER TABLE webhook_deliveries ADD COLUMN pending_until INTEGER;
UPDATE webhook_deliveries SET pending_until = 0 WHERE id NOT IN (SELECT delivery_id FROM webhook_attempts);

-- A new outcome, `interrupted`: SQLite cannot change a CHECK in place, so the table is made again.
CREATE TABLE webhook_attempts_new (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'timed_out', 'redirected', 'refused', 'connection_failed', 'interrupted')),
  detail TEXT NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
) STRICT;
INSERT INTO webhook_attempts_new SELECT delivery_id, attempt, started_at, duration_ms, status_code, outcome, detail FROM webhook_attempts;
DROP TABLE webhook_attempts;
ALTER TABLE webhook_attempts_new RENAME TO webhook_attempts;

-- The deliveries still waiting, found without reading the others.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(pending_until) WHERE pending_until IS NOT NULL;
