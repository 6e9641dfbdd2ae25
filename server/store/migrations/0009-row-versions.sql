-- Which rows of a catalog part changed, and at which version of the part: a process that keeps the
-- part (store/read-cache.ts) at version v reads again only the rows recorded after v, not the whole
-- part. Rows are login ids in `logins:<account>` (a login and its extra sites) and record ids in
-- `tokens:<account>`. The triggers that raise those parts' versions are made again here so that each
-- records its row after raising the version, in one body: the order of two triggers on one event is
-- not something SQLite promises.
CREATE TABLE row_versions (
  scope TEXT NOT NULL,
  row_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (scope, row_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX row_versions_since ON row_versions (scope, version);

DROP TRIGGER logins_scope_insert;
DROP TRIGGER logins_scope_update;
DROP TRIGGER logins_scope_delete;
DROP TRIGGER tokens_scope_insert;
DROP TRIGGER tokens_scope_update;
DROP TRIGGER tokens_scope_delete;
DROP TRIGGER login_extra_sites_scope_insert;
DROP TRIGGER login_extra_sites_scope_update;
DROP TRIGGER login_extra_sites_scope_delete;

CREATE TRIGGER logins_scope_insert AFTER INSERT ON logins BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT scope, NEW.id, version FROM data_scopes WHERE scope = 'logins:' || NEW.account_id
    ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
END;

-- As in 0008-password-scope: a password write raises nothing. A column added to logins later must be
-- added here.
CREATE TRIGGER logins_scope_update AFTER UPDATE ON logins
WHEN OLD.id IS NOT NEW.id OR OLD.account_id IS NOT NEW.account_id OR OLD.label IS NOT NEW.label
  OR OLD.website IS NOT NEW.website OR OLD.email IS NOT NEW.email OR OLD.username IS NOT NEW.username
  OR OLD.totp_secret IS NOT NEW.totp_secret OR OLD.created_by_key IS NOT NEW.created_by_key
  OR OLD.password_owner_managed IS NOT NEW.password_owner_managed OR OLD.created_at IS NOT NEW.created_at BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT scope, NEW.id, version FROM data_scopes WHERE scope = 'logins:' || NEW.account_id
    ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
  -- A row that moved (never done today) is also gone from where it was.
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE OLD.account_id IS NOT NEW.account_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || OLD.account_id, 1 WHERE OLD.account_id IS NOT NEW.account_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT scope, OLD.id, version FROM data_scopes WHERE scope = 'logins:' || OLD.account_id
    AND (OLD.id IS NOT NEW.id OR OLD.account_id IS NOT NEW.account_id)
    ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER logins_scope_delete AFTER DELETE ON logins BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT scope, OLD.id, version FROM data_scopes WHERE scope = 'logins:' || OLD.account_id
    ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER tokens_scope_insert AFTER INSERT ON tokens BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'tokens:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT scope, NEW.record_id, version FROM data_scopes WHERE scope = 'tokens:' || NEW.account_id
    ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER tokens_scope_update AFTER UPDATE ON tokens BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'tokens:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT scope, NEW.record_id, version FROM data_scopes WHERE scope = 'tokens:' || NEW.account_id
    ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
  -- A row that moved (never done today) is also gone from where it was.
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE OLD.account_id IS NOT NEW.account_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'tokens:' || OLD.account_id, 1 WHERE OLD.account_id IS NOT NEW.account_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT scope, OLD.record_id, version FROM data_scopes WHERE scope = 'tokens:' || OLD.account_id
    AND (OLD.record_id IS NOT NEW.record_id OR OLD.account_id IS NOT NEW.account_id)
    ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER tokens_scope_delete AFTER DELETE ON tokens BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'tokens:' || OLD.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT scope, OLD.record_id, version FROM data_scopes WHERE scope = 'tokens:' || OLD.account_id
    ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER login_extra_sites_scope_insert AFTER INSERT ON login_extra_sites BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM logins WHERE id = NEW.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || account_id, 1 FROM logins WHERE id = NEW.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT d.scope, NEW.login_id, d.version FROM logins l JOIN data_scopes d ON d.scope = 'logins:' || l.account_id
    WHERE l.id = NEW.login_id ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER login_extra_sites_scope_update AFTER UPDATE ON login_extra_sites BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM logins WHERE id = NEW.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || account_id, 1 FROM logins WHERE id = NEW.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT d.scope, NEW.login_id, d.version FROM logins l JOIN data_scopes d ON d.scope = 'logins:' || l.account_id
    WHERE l.id = NEW.login_id ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM logins WHERE id = OLD.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || account_id, 1 FROM logins WHERE id = OLD.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT d.scope, OLD.login_id, d.version FROM logins l JOIN data_scopes d ON d.scope = 'logins:' || l.account_id
    WHERE l.id = OLD.login_id ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER login_extra_sites_scope_delete AFTER DELETE ON login_extra_sites BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || account_id, 1 FROM logins WHERE id = OLD.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || account_id, 1 FROM logins WHERE id = OLD.login_id ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO row_versions (scope, row_id, version) SELECT d.scope, OLD.login_id, d.version FROM logins l JOIN data_scopes d ON d.scope = 'logins:' || l.account_id
    WHERE l.id = OLD.login_id ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
END;
