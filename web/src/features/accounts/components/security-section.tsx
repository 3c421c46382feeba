import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import Divider from '@mui/material/Divider';
import { SectionCard } from '@/components/sections/section-card';
import { isApiError } from '@/lib/api-client';
import { useSessions } from '../hooks/use-sessions';
import { SECURITY_STRINGS } from '../security-strings';
import { PasswordChangeForm } from './password-change-form';
import { SessionList } from './session-list';

/**
 * "Login and security" on /my (issue 21, beyond the spec): the password change that needs the current
 * password and logs the other devices out, and the account's active logins with per-device logout and
 * "log out other devices".
 */
export function SecuritySection({ onNotify }: { onNotify: (message: string) => void }) {
  const sessions = useSessions();
  // A backend with only the spec's calls answers 404: it has neither sessions nor a password change.
  if (sessions.isError && isApiError(sessions.error) && sessions.error.status === 404) return null;
  return (
    <SectionCard
      id="security"
      icon={<ShieldOutlined />}
      title={SECURITY_STRINGS.title}
      description={SECURITY_STRINGS.description}
    >
      <SessionList onNotify={onNotify} />
      <Divider sx={{ my: 2.5 }} />
      <PasswordChangeForm onNotify={onNotify} />
    </SectionCard>
  );
}
