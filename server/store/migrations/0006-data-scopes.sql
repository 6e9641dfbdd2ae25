-- What each write changed, for the reads kept in memory (store/read-cache.ts). Every write to the
-- data a kept read depends on raises the version of its scope: `account:<id>` for an account's
-- keys, logins, cards, identity, addresses and tokens, and with it the part it wrote
-- (`logins:<id>`, `cards:<id>`, `profile:<id>`, `tokens:<id>`), of which the catalog is built;
-- `keys` for any API key or account (what authentication reads); `registry` for the recipe
-- submissions. A kept read of one scope is
-- stale only when its version moved, so a write to one account leaves every other account's kept
-- reads, and the registry's, standing. Triggers raise the versions, so no write can forget to, and
-- another process's commit is seen through them too (the reader looks once `PRAGMA data_version`
-- changed). A key's last-used time is bookkeeping and raises nothing.
CREATE TABLE data_scopes (
  scope TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TRIGGER accounts_scope_insert AFTER INSERT ON accounts BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'keys', 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER accounts_scope_update AFTER UPDATE ON accounts BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'keys', 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER accounts_scope_delete AFTER DELETE ON accounts BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'keys', 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER api_keys_scope_insert AFTER INSERT ON api_keys BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'keys', 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER api_keys_scope_update AFTER UPDATE OF id, account_id, name, hash, signup_enabled, scoped, created_at, revoked_at ON api_keys BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'keys', 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER api_keys_scope_delete AFTER DELETE ON api_keys BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'keys', 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER logins_scope_insert AFTER INSERT ON logins BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER logins_scope_update AFTER UPDATE ON logins BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER logins_scope_delete AFTER DELETE ON logins BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER cards_scope_insert AFTER INSERT ON cards BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'cards:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER cards_scope_update AFTER UPDATE ON cards BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'cards:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER cards_scope_delete AFTER DELETE ON cards BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'cards:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER identity_fields_scope_insert AFTER INSERT ON identity_fields BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER identity_fields_scope_update AFTER UPDATE ON identity_fields BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER identity_fields_scope_delete AFTER DELETE ON identity_fields BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER addresses_scope_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER addresses_scope_update AFTER UPDATE ON addresses BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER addresses_scope_delete AFTER DELETE ON addresses BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER tokens_scope_insert AFTER INSERT ON tokens BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'tokens:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER tokens_scope_update AFTER UPDATE ON tokens BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'tokens:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER tokens_scope_delete AFTER DELETE ON tokens BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'tokens:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER login_extra_sites_scope_insert AFTER INSERT ON login_extra_sites BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM logins WHERE id = NEW.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || account_id, 1 FROM logins WHERE id = NEW.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER login_extra_sites_scope_update AFTER UPDATE ON login_extra_sites BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM logins WHERE id = NEW.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || account_id, 1 FROM logins WHERE id = NEW.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM logins WHERE id = OLD.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || account_id, 1 FROM logins WHERE id = OLD.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER login_extra_sites_scope_delete AFTER DELETE ON login_extra_sites BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM logins WHERE id = OLD.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || account_id, 1 FROM logins WHERE id = OLD.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER key_logins_scope_insert AFTER INSERT ON key_logins BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM api_keys WHERE id = NEW.key_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER key_logins_scope_update AFTER UPDATE ON key_logins BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM api_keys WHERE id = NEW.key_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM api_keys WHERE id = OLD.key_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER key_logins_scope_delete AFTER DELETE ON key_logins BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM api_keys WHERE id = OLD.key_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER card_sites_scope_insert AFTER INSERT ON card_sites BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM cards WHERE id = NEW.card_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'cards:' || account_id, 1 FROM cards WHERE id = NEW.card_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER card_sites_scope_update AFTER UPDATE ON card_sites BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM cards WHERE id = NEW.card_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'cards:' || account_id, 1 FROM cards WHERE id = NEW.card_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM cards WHERE id = OLD.card_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'cards:' || account_id, 1 FROM cards WHERE id = OLD.card_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER card_sites_scope_delete AFTER DELETE ON card_sites BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM cards WHERE id = OLD.card_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'cards:' || account_id, 1 FROM cards WHERE id = OLD.card_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER address_fields_scope_insert AFTER INSERT ON address_fields BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM addresses WHERE id = NEW.address_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || account_id, 1 FROM addresses WHERE id = NEW.address_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER address_fields_scope_update AFTER UPDATE ON address_fields BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM addresses WHERE id = NEW.address_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || account_id, 1 FROM addresses WHERE id = NEW.address_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM addresses WHERE id = OLD.address_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || account_id, 1 FROM addresses WHERE id = OLD.address_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER address_fields_scope_delete AFTER DELETE ON address_fields BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM addresses WHERE id = OLD.address_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'profile:' || account_id, 1 FROM addresses WHERE id = OLD.address_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER recipe_submissions_scope_insert AFTER INSERT ON recipe_submissions BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'registry', 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER recipe_submissions_scope_update AFTER UPDATE ON recipe_submissions BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'registry', 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER recipe_submissions_scope_delete AFTER DELETE ON recipe_submissions BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'registry', 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
