import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveAnimations } from '../src/state/animations.js';

const name = (c) => ({ c1: 'ana', c2: 'bob' })[c] ?? c;

test('a late joiner starts from welcome.animations', () => {
  const a = new LiveAnimations();
  a.welcome({ animations: [{ id: 'f1', by: 'c1', kind: 'fly', status: 'running' }, { id: 'b', by: 'c2', kind: 'animate', status: 'delayed' }] });
  assert.equal(a.describe(name), 'fly f1 (ana), animate b (bob, delayed)');
});

test('reports start and end animations, others\' and this page\'s own', () => {
  const a = new LiveAnimations();
  a.welcome({});
  assert.equal(a.describe(name), 'none');
  a.report({ id: 'x', status: 'started', owner: 'c2' }, 'c1');
  a.report({ id: 'x', status: 'started' }, 'c1'); // own report: no owner field
  assert.equal(a.live.size, 2, 'the same id from two owners is two animations');
  a.report({ id: 'x', status: 'interrupted', owner: 'c2' }, 'c1');
  assert.match(a.describe(name), /x \(bob\)/);
  a.report({ id: 'x', status: 'superseded', owner: 'c2' }, 'c1');
  a.report({ id: 'x', status: 'finished' }, 'c1');
  assert.equal(a.describe(name), 'none');
});

test('the panel lists every live animation and marks the ones this page may cancel by id', () => {
  const live = new LiveAnimations();
  live.welcome({ animations: [{ id: 'f1', by: 'c1', kind: 'fly', status: 'running' }] });
  live.report({ type: 'animation', id: 'mine', status: 'started' }, 'c7');
  assert.deepEqual(live.entries('c7').map((a) => [a.id, a.owner, a.mine]), [['f1', 'c1', false], ['mine', 'c7', true]]);
  live.report({ type: 'animation', id: 'mine', status: 'cancelled' }, 'c7');
  assert.deepEqual(live.entries('c7').map((a) => a.id), ['f1']);
});
