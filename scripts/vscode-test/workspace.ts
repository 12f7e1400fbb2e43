// Throwaway copies of the fixture workspace, so a test may edit, approve and write files without dirtying the repo.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FIXTURE_WORKSPACE } from './paths';
import { onCleanup } from './cleanup';

/** A fresh copy of test/fixtures/workspace in a temp dir (removed at cleanup); returns its absolute path. */
export function copyFixtureWorkspace(label = 'workspace'): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-immune-ws-'));
  const folder = path.join(parent, label);
  fs.cpSync(FIXTURE_WORKSPACE, folder, { recursive: true });
  onCleanup(`remove workspace copy ${folder}`, () => fs.rmSync(parent, { recursive: true, force: true }));
  return folder;
}
