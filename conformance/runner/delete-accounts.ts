import { loadDriver } from './driver-loader.js';
import { Connection } from './http.js';
import { UsageError } from './options.js';
import type { Settings } from './settings.js';
import type { Output } from './report/console.js';

/**
 * `--delete-accounts ID,ID`: deletes, through the run's driver, the accounts a run listed as left
 * behind. 0 when every one is gone, 3 when the driver failed for some.
 */
export async function deleteAccounts(settings: Settings, ids: string[], out: Output): Promise<0 | 3> {
  if (!settings.driver) throw new UsageError('--delete-accounts needs the driver that opened them (--driver, with its options)');
  const connection = new Connection(settings.connection, [settings.baseUrl]);
  try {
    const driver = await loadDriver(settings.driver, settings.baseUrl, connection);
    if (typeof driver.deleteAccount !== 'function') throw new UsageError('the driver cannot deleteAccount');
    let failed = 0;
    for (const id of ids.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)) {
      try {
        await driver.deleteAccount(id);
        out.write(`deleted ${id}\n`);
      } catch (e) {
        failed++;
        out.write(`not deleted ${id}: ${(e as Error).message.split('\n')[0]}\n`);
      }
    }
    await driver.close?.();
    return failed > 0 ? 3 : 0;
  } finally {
    connection.close();
  }
}
