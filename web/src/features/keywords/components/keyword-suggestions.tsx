import AddRounded from '@mui/icons-material/AddRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { Keyword } from '@radar/shared';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/api-client';
import { useAddKeyword, useKeywordSuggestions, usePaperAvailability } from '../hooks/use-keywords';
import { KEYWORD_STRINGS } from '../strings';
import { unfollowedSuggestions } from '../utils/keyword-display';

const STRINGS = KEYWORD_STRINGS.suggestions;

type KeywordSuggestionsProps = {
  followed: readonly Keyword[];
  /** Whether the profile has an English research direction (the suggestions' main source). */
  hasResearchSummary: boolean;
  onAdded: (name: string) => void;
  onError: (message: string) => void;
};

/** Suggested keywords (GET /user-rkeywords/) as chips; one click follows one. */
export function KeywordSuggestions({ followed, hasResearchSummary, onAdded, onError }: KeywordSuggestionsProps) {
  const suggestions = useKeywordSuggestions();
  const visible = suggestions.data ? unfollowedSuggestions(suggestions.data.keywords, followed) : [];
  // Why a complete profile got nothing: asked only then.
  const availability = usePaperAvailability(
    hasResearchSummary && suggestions.isSuccess && suggestions.data.keywords.length === 0,
  );
  const add = useAddKeyword();
  const [adding, setAdding] = useState<string | null>(null);

  const follow = (name: string) => {
    setAdding(name);
    add.mutate(name, {
      onSuccess: ({ keyword }) => onAdded(keyword.name),
      onError: (error) => onError(getErrorMessage(error)),
      onSettled: () => setAdding(null),
    });
  };

  if (suggestions.isPending) {
    return (
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} aria-hidden>
        {[96, 140, 80, 120].map((width) => (
          <Skeleton key={width} variant="rounded" width={width} height={32} />
        ))}
      </Box>
    );
  }
  if (suggestions.isError) {
    return (
      <Alert
        severity="warning"
        data-testid="keyword-suggestions-error"
        action={
          <Button color="inherit" size="small" onClick={() => suggestions.refetch()}>
            {STRINGS.retry}
          </Button>
        }
      >
        {getErrorMessage(suggestions.error)}
      </Alert>
    );
  }

  if (visible.length === 0) {
    if (hasResearchSummary && suggestions.data.keywords.length === 0 && availability.isPending) return null;
    const cause = emptyCause({
      hasResearchSummary,
      hadSuggestions: suggestions.data.keywords.length > 0,
      availablePapers: availability.data?.availablePapers ?? null,
    });
    return (
      <Box
        data-testid="keyword-suggestions-empty"
        data-cause={cause}
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}
      >
        <Typography variant="body2" color="text.secondary">
          {STRINGS[cause]}
        </Typography>
        {cause === 'empty' ? (
          <Button component={RouterLink} to={paths.my.getHref()} size="small">
            {STRINGS.goSetUp}
          </Button>
        ) : null}
      </Box>
    );
  }
  return (
    <Box
      component="ul"
      data-testid="keyword-suggestions"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', m: 0, p: 0 }}
    >
      {visible.map((suggestion) => (
        <li key={suggestion.name}>
          <Chip
            label={suggestion.name}
            icon={<AddRounded />}
            variant="outlined"
            color="primary"
            clickable
            disabled={adding !== null}
            onClick={() => follow(suggestion.name)}
            aria-label={STRINGS.addLabel(suggestion.name)}
            data-testid="keyword-suggestion"
            data-name={suggestion.name}
            sx={{ maxWidth: '100%' }}
          />
        </li>
      ))}
    </Box>
  );
}

/**
 * Why no suggestion is shown, told truthfully: 去完善 only when the profile lacks its English research
 * direction; with a complete profile, every suggestion already followed, no paper to analyse yet (sources
 * still fetching), or papers that gave nothing; no cause claimed when the count of papers is unknown.
 */
function emptyCause({
  hasResearchSummary,
  hadSuggestions,
  availablePapers,
}: {
  hasResearchSummary: boolean;
  hadSuggestions: boolean;
  availablePapers: number | null;
}): 'empty' | 'allFollowed' | 'noPapers' | 'nothingFound' | 'unexplained' {
  if (hadSuggestions) return 'allFollowed';
  if (!hasResearchSummary) return 'empty';
  if (availablePapers === null) return 'unexplained';
  return availablePapers === 0 ? 'noPapers' : 'nothingFound';
}
