-- SQLite's 0011-webhook-secret-overlap, for PostgreSQL: a rotated signing secret kept beside its
-- successor until `previous_until`, the time a delivery's attempt is over at the latest, and the
-- `interrupted` outcome (PostgreSQL changes the CHECK in place).
ALTER TABLE card_webhooks ADD COLUMN previous_secret BYTEA;
ALTER TABLE card_webhooks ADD COLUMN previous_until BIGINT CHECK ((previous_secret IS NULL) = (previous_until IS NULL));

ALTER TABLE webhook_deliveries ADD COLUMN pending_until BIGINT;
UPDATE webhook_deliveries SET pending_until = 0 WHERE id NOT IN (SELECT delivery_id FROM webhook_attempts);

ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_outcome_check;
ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_outcome_check
  CHECK (outcome IN ('delivered', 'timed_out', 'redirected', 'refused', 'connection_failed', 'interrupted'));

CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(pending_until) WHERE pending_until IS NOT NULL;
