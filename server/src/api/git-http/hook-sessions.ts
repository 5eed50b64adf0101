import { randomBytes } from 'node:crypto';

export interface HookSession {
  userId: number;
  projectId: number;
  /** shown to the pusher after the push (post-receive), e.g. that the project moved */
  messages?: string[];
}

/**
 * Each receive-pack the server starts gets a random key, passed to the
 * hooks in their environment. The hooks present it on the admin socket, so
 * a hook call can only speak for the push that is running, as the user who
 * is pushing; another local process cannot claim a user or a project.
 */
export function createHookSessions() {
  const sessions = new Map<string, HookSession>();
  return {
    open(session: HookSession): { key: string; close(): void } {
      const key = randomBytes(24).toString('base64url');
      sessions.set(key, session);
      return { key, close: () => sessions.delete(key) };
    },
    find: (key: unknown): HookSession | undefined => (typeof key === 'string' ? sessions.get(key) : undefined),
  };
}

export type HookSessions = ReturnType<typeof createHookSessions>;
