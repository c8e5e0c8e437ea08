// Whether an exploring page shares where it looks (web/js/page/sharing.js): the address wins, else the
// person's last choice on this browser, else on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSharing } from '../js/page/sharing.js';
import { parseParams } from '../js/ui/params.js';

test('sharing is on when nothing says otherwise', () => {
  assert.equal(initialSharing(undefined, null), true);
});

test('a remembered off keeps sharing off', () => {
  assert.equal(initialSharing(undefined, '0'), false);
});

test('the address wins over the remembered choice', () => {
  assert.equal(initialSharing(true, '0'), true);
  assert.equal(initialSharing(false, '1'), false);
});

test('?share=0 turns sharing off, ?share=1 on, and anything else is a problem naming share', () => {
  assert.equal(parseParams('?share=0').share, false);
  assert.equal(parseParams('?share=1').share, true);
  assert.equal(parseParams('').share, undefined);
  const bad = parseParams('?share=maybe');
  assert.equal(bad.share, undefined);
  assert.deepEqual(bad.problems.map((p) => p.param), ['share']);
});
