import { paths } from '@/config/paths';
import { getReturnTarget } from '@/lib/navigation-state';

/** Screens a signed-in user has no business returning to: going back there would bounce again. */
const AUTH_SCREENS: readonly string[] = [
  paths.login.path,
  paths.register.path,
  paths.forgotPassword.path,
  paths.resetPassword.path,
  paths.verifyEmail.path,
];

/**
 * Where a signed-in user goes from /login: the originating route carried in navigation
 * state, or /my. An origin that is itself an auth screen counts as none.
 */
export function getPostLoginTarget(state: unknown): string {
  const from = getReturnTarget(state);
  if (!from) return paths.my.getHref();
  const pathname = from.split(/[?#]/, 1)[0]?.replace(/\/+$/, '') || '/';
  return AUTH_SCREENS.includes(pathname) ? paths.my.getHref() : from;
}
