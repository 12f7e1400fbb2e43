// The re-pin question after hardening agrees in number with the files it names.
import * as assert from 'node:assert/strict';
import { hardenNotice } from '../../../src/core/harden/messages';

describe('hardening wording', () => {
  it('asks about one pinned file in the singular and several in the plural', () => {
    assert.match(hardenNotice.repinQuestion('a.md', 1), /^a\.md is pinned in the lockfile/);
    assert.match(hardenNotice.repinQuestion('a.md, b.md', 2), /^a\.md, b\.md are pinned in the lockfile/);
  });
});
