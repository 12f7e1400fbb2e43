// Pin Skills' refusal counts every path it refused and names the first, so the notification agrees with the log.
import * as assert from 'node:assert/strict';
import { integrityNotice } from '../../../src/core/integrity/messages';
import type { IntegrityFinding } from '../../../src/core/integrity/types';

describe('integrity editor wording', () => {
  it('a refused Pin Skills counts the refused paths by code and names the first', () => {
    const refused: IntegrityFinding[] = [
      { code: 'symlink-outside-root', path: 'skills/a.md' },
      { code: 'symlink-outside-root', path: 'skills/b.md' },
    ];
    const text = integrityNotice.pinRefused(refused);
    assert.match(text, /^Pin Skills wrote nothing where 2 path\(s\) cannot be pinned \(2 symlink-outside-root\): /);
    assert.ok(text.includes('skills/a.md') && !text.includes('skills/b.md'), text);
  });
});
