-- Idempotent writes: the first final answer to each Idempotency-Key, per credential, so that the
-- same write sent again is answered without being carried out again. A row is in flight while
-- `owner` names the request that claimed it, and answered once `answer` holds what it was told.
-- `credential` names the API key by its id, or an account-holder link by a tag of its token; the
-- tags of the request line and of the body are HMACs under a key derived from the master key, so a
-- guessed body cannot be confirmed against them; `answer` is sealed like every other stored value.
-- No foreign key: rows live the key's window and are deleted after it, whatever became of the
-- credential.
CREATE TABLE idempotency_keys (
  credential TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  request_tag BLOB NOT NULL,
  body_tag BLOB NOT NULL,
  started_at INTEGER NOT NULL,
  owner TEXT,
  answer BLOB,
  PRIMARY KEY (credential, idempotency_key),
  CHECK ((owner IS NULL) <> (answer IS NULL))
) STRICT;

CREATE INDEX idempotency_keys_started ON idempotency_keys (started_at);
