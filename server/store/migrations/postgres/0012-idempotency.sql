-- SQLite's 0012-idempotency, for PostgreSQL: the first final answer to each Idempotency-Key, per
-- credential (see that migration for what each column holds).
CREATE TABLE idempotency_keys (
  credential TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  request_tag BYTEA NOT NULL,
  body_tag BYTEA NOT NULL,
  started_at BIGINT NOT NULL,
  owner TEXT,
  answer BYTEA,
  PRIMARY KEY (credential, idempotency_key),
  CHECK ((owner IS NULL) <> (answer IS NULL))
);

CREATE INDEX idempotency_keys_started ON idempotency_keys (started_at);
