// What the page tells people when the hub refuses its `hello`: the hub's own
// reason and what to do about it. Pure: the page renders the result.
//
// A refusal is the hub's `error` answering the hello ({code, message}; a wrong
// or missing token is `forbidden`, then close 1008), or a close before any
// welcome ({close, reason}).

import { ROLES } from './params.js';

/**
 * @param {{code?: string, message?: string, close?: number, reason?: string}} refusal
 * @param {{room: string, role: string, token?: string}} params  what the page asked for
 * @returns {{title: string, reason: string, advice: string, actions: string[]}}
 *   actions, in order, from: 'token' (enter a token and join again), 'follower'
 *   (join as a follower, who never needs a token), 'retry' (join again as is)
 */
export function explainRefusal(refusal, params) {
  const as = `room "${params.room}" as ${params.role}`;
  const title = `The hub did not let this page join ${as}`;
  const reason = refusal.code
    ? `${refusal.code}: ${refusal.message ?? ''}`.trim()
    : `connection closed${refusal.close ? ` (${refusal.close}${refusal.reason ? `: ${refusal.reason}` : ''})` : ''}`;
  const message = refusal.message ?? '';

  if (refusal.code === 'forbidden' && /^token:/.test(message)) {
    const needs = params.role === 'presenter'
      ? 'Presenting needs the presenter token'
      : 'Driving needs the driver token (or the presenter token)';
    const had = params.token ? 'The token in this address is not the one the hub was started with. ' : '';
    return {
      title,
      reason,
      advice: `${had}${needs} of this hub (camhub serve --${params.role === 'presenter' ? 'presenter' : 'driver'}-token). `
        + 'Enter it below or add &token=… to the address, or join as a follower: following needs no token.',
      actions: ['token', 'follower'],
    };
  }
  if (refusal.code === 'bad_message') {
    const field = /^([A-Za-z.[\]0-9]+):/.exec(message)?.[1];
    const fix = field ? `The hub could not accept the hello's ${field}. ` : '';
    return {
      title,
      reason,
      advice: `${fix}Change the room, role or name in the session panel (or the address) and join again.`,
      actions: ['retry'],
    };
  }
  if (refusal.code === 'conflict') {
    return { title, reason, advice: 'Join again; if it keeps happening, reload the page.', actions: ['retry'] };
  }
  if (!refusal.code && refusal.close === 1008) {
    return {
      title,
      reason,
      advice: 'The hub closed the connection by policy before welcoming this page. Join again; if it is refused again, check the role and token.',
      actions: ROLES.includes(params.role) && params.role !== 'follower' ? ['retry', 'follower'] : ['retry'],
    };
  }
  return { title, reason, advice: 'Join again, or choose another room or role in the session panel.', actions: ['retry'] };
}
