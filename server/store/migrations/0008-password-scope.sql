-- A password write (a rotation) changes nothing a kept read holds: reads keep tokens and metadata,
-- never a secret, and a login's token for its password stays the same. Such an update raises no
-- scope, so the catalog of a large account is not built again after every rotation; an update of
-- any other column still raises the account's and the logins' scopes.
DROP TRIGGER logins_scope_update;

CREATE TRIGGER logins_scope_update AFTER UPDATE ON logins
WHEN OLD.id IS NOT NEW.id OR OLD.account_id IS NOT NEW.account_id OR OLD.label IS NOT NEW.label
  OR OLD.website IS NOT NEW.website OR OLD.email IS NOT NEW.email OR OLD.username IS NOT NEW.username
  OR OLD.totp_secret IS NOT NEW.totp_secret OR OLD.created_by_key IS NOT NEW.created_by_key
  OR OLD.password_owner_managed IS NOT NEW.password_owner_managed OR OLD.created_at IS NOT NEW.created_at BEGIN
  INSERT INTO data_scopes (scope, version) SELECT 'account:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO data_scopes (scope, version) SELECT 'logins:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
