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
import { useAddKeyword, useKeywordSuggestions } from '../hooks/use-keywords';
import { KEYWORD_STRINGS } from '../strings';
import { unfollowedSuggestions } from '../utils/keyword-display';

const STRINGS = KEYWORD_STRINGS.suggestions;

type KeywordSuggestionsProps = {
  followed: readonly Keyword[];
  onAdded: (name: string) => void;
  onError: (message: string) => void;
};

/** Suggested keywords (GET /user-rkeywords/) as chips; one click follows one. */
export function KeywordSuggestions({ followed, onAdded, onError }: KeywordSuggestionsProps) {
  const suggestions = useKeywordSuggestions();
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

  const visible = unfollowedSuggestions(suggestions.data.keywords, followed);
  if (visible.length === 0) {
    return (
      <Box
        data-testid="keyword-suggestions-empty"
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}
      >
        <Typography variant="body2" color="text.secondary">
          {STRINGS.empty}
        </Typography>
        <Button component={RouterLink} to={paths.my.getHref()} size="small">
          {STRINGS.goSetUp}
        </Button>
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
