import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Keyword } from '@radar/shared';
import { useState } from 'react';
import { NoticeSnackbar } from '@/components/feedback/notice-snackbar';
import { Page } from '@/components/page/page';
import { SectionCard } from '@/components/sections/section-card';
import { getErrorMessage } from '@/lib/api-client';
import { AddKeywordFormCard } from '../components/add-keyword-form';
import { AlertSettingsDialog } from '../components/alert-settings-dialog';
import { KeywordList } from '../components/keyword-list';
import { KeywordSuggestions } from '../components/keyword-suggestions';
import { RemoveKeywordDialog } from '../components/remove-keyword-dialog';
import { useKeywords } from '../hooks/use-keywords';
import { KEYWORD_STRINGS as STRINGS } from '../strings';

/**
 * /keywords, the keyword screen: follow a keyword (typed or suggested), see the
 * followed ones with their alert state, change a keyword's alerts, remove one after confirming.
 */
export function KeywordsPage({ hasResearchSummary }: { hasResearchSummary: boolean }) {
  const keywords = useKeywords();
  const [editing, setEditing] = useState<Keyword | null>(null);
  const [removing, setRemoving] = useState<Keyword | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const followed = keywords.data?.keywords ?? [];
  const [addedCount, setAddedCount] = useState(0);
  const notifyAdded = (name: string) => {
    setNotice(STRINGS.add.added(name));
    setAddedCount((count) => count + 1);
  };

  return (
    <Page title={STRINGS.pageTitle} subtitle={STRINGS.pageSubtitle} maxWidth="md">
      <Stack spacing={3}>
        <SectionCard
          id="keyword-add"
          title={STRINGS.add.title}
          actions={
            keywords.data ? (
              <Typography variant="body2" color="text.secondary" data-testid="keyword-count">
                {STRINGS.add.count(keywords.data.count)}
              </Typography>
            ) : null
          }
        >
          <AddKeywordFormCard onAdded={notifyAdded} addedCount={addedCount} />
        </SectionCard>

        <SectionCard
          id="keyword-suggestions"
          title={STRINGS.suggestions.title}
          description={STRINGS.suggestions.description}
        >
          <KeywordSuggestions
            followed={followed}
            hasResearchSummary={hasResearchSummary}
            onAdded={notifyAdded}
            onError={setNotice}
          />
        </SectionCard>

        <SectionCard id="keyword-list" title={STRINGS.list.title}>
          {keywords.isPending ? (
            <Stack spacing={1.5} aria-hidden>
              {[0, 1, 2].map((row) => (
                <Skeleton key={row} variant="rounded" height={56} />
              ))}
            </Stack>
          ) : keywords.isError ? (
            <Alert
              severity="warning"
              data-testid="keyword-list-error"
              action={
                <Button color="inherit" size="small" onClick={() => keywords.refetch()}>
                  {STRINGS.list.retry}
                </Button>
              }
            >
              {getErrorMessage(keywords.error)}
            </Alert>
          ) : followed.length === 0 ? (
            <Box data-testid="keyword-list-empty" sx={{ textAlign: 'center', py: 3 }}>
              <Typography sx={{ fontWeight: 600 }}>{STRINGS.list.empty}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {STRINGS.list.emptyHint}
              </Typography>
            </Box>
          ) : (
            <KeywordList keywords={followed} onEditAlerts={setEditing} onRemove={setRemoving} />
          )}
        </SectionCard>
      </Stack>

      <AlertSettingsDialog
        keyword={editing}
        onClose={() => setEditing(null)}
        onSaved={() => setNotice(STRINGS.settings.saved)}
      />
      <RemoveKeywordDialog
        keyword={removing}
        onClose={() => setRemoving(null)}
        onRemoved={(name) => setNotice(STRINGS.remove.removed(name))}
      />
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} testId="keyword-notice" />
    </Page>
  );
}
