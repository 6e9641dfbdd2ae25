-- The catalog reads an account's tokens and cards; without these, each read scanned every account's rows.
CREATE INDEX tokens_account ON tokens(account_id, record_id, field, token);
CREATE INDEX cards_account ON cards(account_id);
