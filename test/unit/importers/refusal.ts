// How the importer tests read a refusal: the InputError an import throws.
import * as assert from 'node:assert/strict';
import { InputError } from '../../../src/core/errors';
import { importTraceText, type ImportFormat } from '../../../src/core/importers';

/** The InputError importing `text` (as `from`, or detected) throws; fails the test when it imports. */
export function refusal(text: string, from?: ImportFormat): InputError {
  try {
    importTraceText(text, { from });
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  return assert.fail('expected a rejection');
}
