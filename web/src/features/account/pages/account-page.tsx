import LogoutRounded from '@mui/icons-material/LogoutRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import type { UserResponse } from '@radar/shared';
import { useEffect, useState } from 'react';
import { Page } from '@/components/page/page';
import { AccountSection } from '../components/account-section';
import { BasicInfoSection } from '../components/basic-info-section';
import { DataExportSection } from '../components/data-export-section';
import { DeleteAccountSection } from '../components/delete-account-section';
import { DeliverySection } from '../components/delivery-section';
import { EmailChangeSection } from '../components/email-change-section';
import { FollowedAuthorsSection } from '../components/followed-authors-section';
import { InterestsSection } from '../components/interests-section';
import { LearningSection } from '../components/learning-section';
import { ResearchDialog } from '../components/research-dialog';
import { ResearchGuideDialog } from '../components/research-guide-dialog';
import { ResearchInfoSection } from '../components/research-info-section';
import { SecuritySection } from '../components/security-section';
import { useResearchGuide } from '../hooks/use-research-guide';
import { ACCOUNT_STRINGS } from '../strings';
import { cacheResearchProfile } from '../utils/research-cache';
import { hasResearchInfo } from '../utils/research-fields';

type AccountPageProps = {
  user: UserResponse;
  onLogout: () => void;
  /** Reloads the profile after a save (the session owns it). */
  onProfileSaved: () => Promise<void>;
  /** The account was deleted on the server: end the session here and leave the page. */
  onAccountDeleted: () => void;
};

/**
 * /my: account, research info with the AI dialog, how the
 * recommendations learn (with a research summary), basic info, logout, and the first-visit guide.
 * Guarded; app/routes/account.tsx passes the session in.
 */
export function AccountPage({ user, onLogout, onProfileSaved, onAccountDeleted }: AccountPageProps) {
  const isEmpty = !hasResearchInfo(user);
  const guide = useResearchGuide(!isEmpty);
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => cacheResearchProfile(user), [user]);

  const openDialog = () => {
    guide.close();
    setIsDialogOpen(true);
  };

  return (
    <Page title={ACCOUNT_STRINGS.pageTitle} subtitle={ACCOUNT_STRINGS.pageSubtitle} maxWidth="md">
      <Stack spacing={3}>
        <AccountSection email={user.email} />
        <ResearchInfoSection
          user={user}
          isEmpty={isEmpty}
          onGenerate={openDialog}
          onSaved={onProfileSaved}
          onNotify={setNotice}
        />
        {/* Learning adjusts recommendations, which need a research summary. */}
        {user.research_summary_en.trim() ? <LearningSection onNotify={setNotice} /> : null}
        {/* The research summary is the first interest: the others join it once it exists. */}
        {user.research_summary_en.trim() ? <InterestsSection onNotify={setNotice} /> : null}
        <FollowedAuthorsSection onNotify={setNotice} />
        <DeliverySection email={user.email} onNotify={setNotice} />
        <BasicInfoSection user={user} onSaved={onProfileSaved} onNotify={setNotice} />
        <SecuritySection onNotify={setNotice} />
        <EmailChangeSection currentEmail={user.email} onChanged={onProfileSaved} onNotify={setNotice} />
        <DataExportSection onNotify={setNotice} />
        <DeleteAccountSection onDeleted={onAccountDeleted} />
        <Box sx={{ display: 'flex', justifyContent: { xs: 'stretch', sm: 'flex-end' } }}>
          <Button
            variant="outlined"
            color="error"
            startIcon={<LogoutRounded />}
            onClick={onLogout}
            data-testid="account-logout"
            sx={{ width: { xs: '100%', sm: 'auto' } }}
          >
            {ACCOUNT_STRINGS.logout}
          </Button>
        </Box>
      </Stack>

      <ResearchDialog
        open={isDialogOpen}
        onClose={() => setIsDialogOpen(false)}
        accountEmail={user.email}
        initialDescription={user.research_description}
        onSaved={onProfileSaved}
      />
      <ResearchGuideDialog
        open={guide.isOpen && !isDialogOpen}
        onClose={guide.close}
        onCompleteNow={openDialog}
        onRemindLater={guide.remindLater}
        onNeverRemind={guide.neverRemind}
      />
      <Snackbar
        open={notice !== null}
        autoHideDuration={3000}
        onClose={() => setNotice(null)}
        message={notice}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      />
    </Page>
  );
}
