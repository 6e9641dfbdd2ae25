import { closeSync, mkdirSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../options.js';

/**
 * Report files are checked before the first request, so that a run is never lost at its end to a
 * path that cannot be written: each must be a file (not a directory) whose folder exists or can be
 * made, and which can be opened for writing. A file that did not exist is removed again, so a run
 * that stops before its end leaves no empty report behind.
 */
export function checkReportPaths(paths: { option: string; file: string | undefined }[]): void {
  const seen = new Map<string, string>();
  for (const { option, file } of paths) {
    if (!file) continue;
    const other = seen.get(file);
    if (other) throw new UsageError(`${other} and ${option} name the same file ${file}; give each report its own`);
    seen.set(file, option);
    checkWritable(option, file);
  }
}

function checkWritable(option: string, file: string): void {
  const fail = (why: string) => {
    throw new UsageError(`${option} ${file}: ${why}; give a file path that can be written`);
  };
  let existed = false;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) fail('is a directory');
    existed = true;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') fail(`a part of the path is a file, not a folder`);
    if (code !== 'ENOENT') fail(plain(e));
  }
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (e) {
    fail(`cannot make its folder ${dirname(file)} (${plain(e)})`);
  }
  try {
    // Append mode: an existing report is not truncated before the run has a new one to put there.
    closeSync(openSync(file, 'a'));
  } catch (e) {
    fail(`cannot be written (${plain(e)})`);
  }
  if (!existed) rmSync(file, { force: true });
}

function plain(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOTDIR: 'a part of the path is a file, not a folder',
    EISDIR: 'is a directory',
    EEXIST: 'a part of the path is a file, not a folder',
    ENOSPC: 'no space left on the device',
  };
  return (err.code && words[err.code]) ?? err.message.split('\n')[0]!;
}

/** Writes a report, making its folder; a failure here (the disk filled up during the run, say) is returned, not thrown. */
export function writeReport(option: string, file: string, text: string): string | undefined {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return undefined;
  } catch (e) {
    return `${option} ${file}: could not be written (${plain(e)})`;
  }
}
