import LogoutRounded from '@mui/icons-material/LogoutRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { NoticeSnackbar } from '@/components/feedback/notice-snackbar';
import { PageLoader } from '@/components/feedback/page-loader';
import { Page } from '@/components/page/page';
import { AccountSection } from '@/features/accounts/components/account-section';
import { BasicInfoSection } from '@/features/accounts/components/basic-info-section';
import { DataExportSection } from '@/features/accounts/components/data-export-section';
import { DeleteAccountSection } from '@/features/accounts/components/delete-account-section';
import { EmailChangeSection } from '@/features/accounts/components/email-change-section';
import { SecuritySection } from '@/features/accounts/components/security-section';
import { ACCOUNT_STRINGS } from '@/features/accounts/strings';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { DeliverySection } from '@/features/delivery/components/delivery-section';
import { FollowedAuthorsSection } from '@/features/followed-authors/components/followed-authors-section';
import { InterestsSection } from '@/features/interests/components/interests-section';
import { LearningSection } from '@/features/learning/components/learning-section';
import { ResearchProfileSection } from '@/features/research-profile/components/research-profile-section';
import { ACCOUNT_DELETED_FLAG } from './landing';

/**
 * /my: the account, the research profile with its AI dialog and first-visit guide, how the
 * recommendations learn (with a research summary), interests, followed authors, delivery, basic info,
 * security, e-mail change, data export, account deletion and logout. Each section belongs to the feature
 * named like the server's (features do not import each other), so the page is composed here, with the
 * session and the one snackbar every section reports to.
 */
export function AccountRoute() {
  const { user, logout, refreshUser } = useAuth();
  const [notice, setNotice] = useState<string | null>(null);
  // A deleted account logs out here (to the landing page), which then says what happened. A flag in
  // sessionStorage, not navigation state: the route guard's own redirect off /my would replace that.
  const onAccountDeleted = () => {
    sessionStorage.setItem(ACCOUNT_DELETED_FLAG, '1');
    logout();
  };
  // The route is guarded, so a user is there; the loader covers the instant of a logout.
  if (!user) return <PageLoader />;
  const hasResearchSummary = Boolean(user.research_summary_en.trim());

  return (
    <Page title={ACCOUNT_STRINGS.pageTitle} subtitle={ACCOUNT_STRINGS.pageSubtitle} maxWidth="md">
      <Stack spacing={3}>
        <AccountSection email={user.email} />
        <ResearchProfileSection user={user} onSaved={refreshUser} onNotify={setNotice} />
        {/* Learning adjusts recommendations, which need a research summary. */}
        {hasResearchSummary ? <LearningSection onNotify={setNotice} /> : null}
        {/* The research summary is the first interest: the others join it once it exists. */}
        {hasResearchSummary ? <InterestsSection onNotify={setNotice} /> : null}
        <FollowedAuthorsSection onNotify={setNotice} />
        <DeliverySection email={user.email} onNotify={setNotice} />
        <BasicInfoSection user={user} onSaved={refreshUser} onNotify={setNotice} />
        <SecuritySection onNotify={setNotice} />
        <EmailChangeSection currentEmail={user.email} onChanged={refreshUser} onNotify={setNotice} />
        <DataExportSection onNotify={setNotice} />
        <DeleteAccountSection onDeleted={onAccountDeleted} />
        <Box sx={{ display: 'flex', justifyContent: { xs: 'stretch', sm: 'flex-end' } }}>
          <Button
            variant="outlined"
            color="error"
            startIcon={<LogoutRounded />}
            onClick={logout}
            data-testid="account-logout"
            sx={{ width: { xs: '100%', sm: 'auto' } }}
          >
            {ACCOUNT_STRINGS.logout}
          </Button>
        </Box>
      </Stack>
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </Page>
  );
}
