import RestartAltRounded from '@mui/icons-material/RestartAltRounded';
import SearchRounded from '@mui/icons-material/SearchRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import {
  NEWS_LIST_LIMITS,
  NEWS_SEARCH_TYPES,
  type NewsSearchRequest,
  type NewsSearchType,
  newsSearchRequestSchema,
} from '@radar/shared';
import { useEffect } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { FormTextField } from '@/components/form/form-text-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { NEWS_SEARCH_STRINGS } from '../strings';
import { criteriaFromForm, type NewsSearchCriteria } from '../utils/news-search-criteria';

const STRINGS = NEWS_SEARCH_STRINGS.form;

type NewsSearchForm = {
  query: string;
  search_type: NewsSearchType;
  institute_name: string;
  date_from: string;
  date_to: string;
};

/** The date range's two fields. */
const DATE_FIELDS = [
  { name: 'date_from', label: STRINGS.dateFrom, testId: 'news-search-date-from' },
  { name: 'date_to', label: STRINGS.dateTo, testId: 'news-search-date-to' },
] as const;

const EMPTY_FORM: NewsSearchForm = {
  query: '',
  search_type: 'keyword',
  institute_name: '',
  date_from: '',
  date_to: '',
};

const toFormValues = (criteria: NewsSearchCriteria | null): NewsSearchForm =>
  criteria
    ? {
        query: criteria.query,
        search_type: criteria.search_type,
        institute_name: criteria.institute_name,
        date_from: criteria.date_from,
        date_to: criteria.date_to,
      }
    : EMPTY_FORM;

type NewsSearchFormProps = {
  /** The search shown (from the URL); the form follows it when it changes. */
  criteria: NewsSearchCriteria | null;
  onSearch: (criteria: NewsSearchCriteria) => void;
  onClear: () => void;
};

/**
 * The news search form, validated by the request schema of POST /api/news/search/ (required text, at
 * most 10 keywords for keyword search, dates as YYYY-MM-DD, start not after end).
 */
export function NewsSearchFormCard({ criteria, onSearch, onClear }: NewsSearchFormProps) {
  const form = useZodForm<NewsSearchForm, NewsSearchRequest>({
    schema: newsSearchRequestSchema,
    defaultValues: toFormValues(criteria),
    mode: 'onSubmit',
  });
  const searchType = useWatch({ control: form.control, name: 'search_type' });

  useEffect(() => {
    form.reset(toFormValues(criteria));
  }, [criteria, form.reset]);

  return (
    <Box
      component="form"
      role="search"
      aria-label={STRINGS.label}
      noValidate
      onSubmit={form.handleSubmit((values) => onSearch(criteriaFromForm(values)))}
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(6, minmax(0, 1fr))' } }}
    >
      <Box sx={{ gridColumn: { md: 'span 4' } }}>
        <FormTextField
          control={form.control}
          name="query"
          label={STRINGS.query}
          placeholder={STRINGS.queryPlaceholder}
          fullWidth
          type="search"
          autoComplete="off"
          slotProps={{
            htmlInput: { maxLength: NEWS_LIST_LIMITS.queryMaxLength, 'data-testid': 'news-search-query' },
          }}
        />
      </Box>
      <Controller
        control={form.control}
        name="search_type"
        render={({ field }) => (
          <FormControl component="fieldset" sx={{ gridColumn: { md: 'span 2' } }}>
            <FormLabel component="legend" id="news-search-type-label" sx={{ typography: 'body2' }}>
              {STRINGS.searchType}
            </FormLabel>
            <RadioGroup
              row
              aria-labelledby="news-search-type-label"
              aria-describedby="news-search-type-hint"
              name={field.name}
              value={field.value}
              onChange={(event) => field.onChange(event.target.value)}
            >
              {NEWS_SEARCH_TYPES.map((type) => (
                <FormControlLabel
                  key={type}
                  value={type}
                  control={<Radio size="small" />}
                  label={STRINGS.searchTypes[type]}
                  data-testid={`news-search-type-${type}`}
                />
              ))}
            </RadioGroup>
            <FormHelperText id="news-search-type-hint" sx={{ mx: 0 }}>
              {STRINGS.searchTypeHints[searchType]}
            </FormHelperText>
          </FormControl>
        )}
      />
      <Box sx={{ gridColumn: { md: 'span 2' } }}>
        <FormTextField
          control={form.control}
          name="institute_name"
          label={STRINGS.institute}
          placeholder={STRINGS.institutePlaceholder}
          fullWidth
          autoComplete="off"
          slotProps={{
            htmlInput: {
              maxLength: NEWS_LIST_LIMITS.instituteNameMaxLength,
              'data-testid': 'news-search-institute',
            },
          }}
        />
      </Box>
      {DATE_FIELDS.map(({ name, label, testId }) => (
        <Box key={name} sx={{ gridColumn: { md: 'span 2' } }}>
          <FormTextField
            control={form.control}
            name={name}
            label={label}
            type="date"
            fullWidth
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
          />
        </Box>
      ))}
      <Box sx={{ gridColumn: { md: '1 / -1' }, display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        <Button
          color="inherit"
          startIcon={<RestartAltRounded />}
          onClick={() => {
            form.reset(EMPTY_FORM);
            onClear();
          }}
          data-testid="news-search-clear"
        >
          {STRINGS.clear}
        </Button>
        <Button type="submit" variant="contained" startIcon={<SearchRounded />} data-testid="news-search-submit">
          {STRINGS.submit}
        </Button>
      </Box>
    </Box>
  );
}
