import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import Box from '@mui/material/Box';
import { InfoRow } from '@/components/sections/info-row';
import { SectionCard } from '@/components/sections/section-card';
import { ACCOUNT_STRINGS } from '../strings';

/** The account section of /my: the sign-in e-mail, or '未填写'. */
export function AccountSection({ email }: { email: string }) {
  return (
    <SectionCard id="account" icon={<AccountCircleOutlined />} title={ACCOUNT_STRINGS.account.title}>
      <Box component="dl" sx={{ m: 0 }}>
        <InfoRow label={ACCOUNT_STRINGS.account.email} value={email} testId="account-email" />
      </Box>
    </SectionCard>
  );
}
