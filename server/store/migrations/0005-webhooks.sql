-- Webhooks of agent cards (section 6). The signing secret is sealed under the master key like every
-- other secret; it outlives a removed endpoint, so setting one again keeps the receiver's secret.
CREATE TABLE card_webhooks (
  card_id TEXT PRIMARY KEY REFERENCES cards(id) ON DELETE CASCADE,
  url TEXT,
  secret BLOB NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- Kept until the account is deleted (section 8.5, "webhook logs"); the fixture surface lists the newest.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  card_id TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  url TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_card ON webhook_deliveries(card_id, created_at);

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'timed_out', 'redirected', 'refused', 'connection_failed')),
  detail TEXT NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
) STRICT;
