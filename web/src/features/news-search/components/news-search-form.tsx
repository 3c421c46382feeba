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

/**
 * The form's text fields (the search type's radios sit between the query and the institute): where each
 * sits on the grid, and what it takes. The dates' labels stay above the field (a date input is never empty).
 */
type TextFieldSpec = {
  span: number;
  label: string;
  placeholder?: string;
  type?: 'search' | 'date';
  maxLength?: number;
  testId: string;
};

const TEXT_FIELDS: Record<Exclude<keyof NewsSearchForm, 'search_type'>, TextFieldSpec> = {
  query: {
    span: 4,
    label: STRINGS.query,
    placeholder: STRINGS.queryPlaceholder,
    type: 'search',
    maxLength: NEWS_LIST_LIMITS.queryMaxLength,
    testId: 'news-search-query',
  },
  institute_name: {
    span: 2,
    label: STRINGS.institute,
    placeholder: STRINGS.institutePlaceholder,
    maxLength: NEWS_LIST_LIMITS.instituteNameMaxLength,
    testId: 'news-search-institute',
  },
  date_from: { span: 2, label: STRINGS.dateFrom, type: 'date', testId: 'news-search-date-from' },
  date_to: { span: 2, label: STRINGS.dateTo, type: 'date', testId: 'news-search-date-to' },
};

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

  const textField = (name: keyof typeof TEXT_FIELDS) => {
    const { span, label, placeholder, type, maxLength, testId } = TEXT_FIELDS[name];
    const isDate = type === 'date';
    return (
      <Box sx={{ gridColumn: { md: `span ${span}` } }}>
        <FormTextField
          control={form.control}
          name={name}
          label={label}
          placeholder={placeholder}
          type={type}
          fullWidth
          autoComplete={isDate ? undefined : 'off'}
          slotProps={{
            inputLabel: isDate ? { shrink: true } : undefined,
            htmlInput: { maxLength, 'data-testid': testId },
          }}
        />
      </Box>
    );
  };

  return (
    <Box
      component="form"
      role="search"
      aria-label={STRINGS.label}
      noValidate
      onSubmit={form.handleSubmit((values) => onSearch(criteriaFromForm(values)))}
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(6, minmax(0, 1fr))' } }}
    >
      {textField('query')}
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
      {textField('institute_name')}
      {textField('date_from')}
      {textField('date_to')}
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
