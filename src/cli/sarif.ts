// Writes a command's findings as a SARIF 2.1.0 file (verify --sarif, harden --sarif), the tool named once.
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { writingTo } from '../core/errors';
import { PROJECT_URL } from '../core/findings';
import { toSarif, type SarifResult, type SarifRule } from '../core/sarif';
import { NO_FOLLOW_WRITE } from '../node/workspaceFs';
import { version } from '../../package.json';

/** Writes the SARIF log of `results` under `rules` to `file`, creating its folder. */
export async function writeSarifFile(file: string, rules: readonly SarifRule[], results: readonly SarifResult[]): Promise<void> {
  const sarif = toSarif({ name: 'agent-immune', version, informationUri: PROJECT_URL }, rules, results);
  await mkdir(path.dirname(file), { recursive: true });
  await writingTo(file, () => writeFile(file, JSON.stringify(sarif, null, 2) + '\n', { flag: NO_FOLLOW_WRITE }));
}
