/**
 * The reply form's 'Resolve thread' checkbox (on a resolved thread, 'Unresolve thread'): the
 * state the thread ends in after the reply, and the sentence that says so.
 */
export interface ReplyResolution {
  label: 'Resolve thread' | 'Unresolve thread';
  /** whether the thread is resolved once the reply is sent */
  resolvedAfter: boolean;
  message: 'Thread stays resolved' | 'Thread will be resolved' | 'Thread will be open' | 'Thread stays open';
}

export function replyResolution(resolved: boolean, checked: boolean): ReplyResolution {
  const resolvedAfter = resolved ? !checked : checked;
  const message = resolvedAfter ? (resolved ? 'Thread stays resolved' : 'Thread will be resolved') : resolved ? 'Thread will be open' : 'Thread stays open';
  return { label: resolved ? 'Unresolve thread' : 'Resolve thread', resolvedAfter, message };
}
