/**
 * Whether a failed read should make the app re-check the session. Only a 401 while signed in
 * does: the session ended elsewhere, so pages for users send to sign in and public pages show
 * 'Sign in'. Signed out, a 401 is just that read's answer; re-checking a session known to be
 * absent changes nothing and, on a public page, must not loop. The session's own 401 is the
 * answer "signed out", never a reason to ask again.
 */
export function shouldRecheckSession({ status, queryKey, sessionKey, signedIn }: { status: number | null; queryKey: readonly unknown[]; sessionKey: string; signedIn: boolean }): boolean {
  return status === 401 && queryKey[0] !== sessionKey && signedIn;
}
