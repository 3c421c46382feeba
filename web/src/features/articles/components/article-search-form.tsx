import SearchRounded from '@mui/icons-material/SearchRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { ARTICLE_SEARCH_QUERY_MAX_LENGTH, splitSearchKeywords } from '@radar/shared';
import { useEffect } from 'react';
import { z } from 'zod';
import { FormTextField } from '@/components/form/form-text-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { ARTICLE_STRINGS } from '../strings';

const STRINGS = ARTICLE_STRINGS.search;

// The rules of GET /articles/search/'s `q` (article.schema.ts), with its messages.
const searchFormSchema = z.object({
  q: z
    .string()
    .trim()
    .min(1, { message: STRINGS.empty })
    .max(ARTICLE_SEARCH_QUERY_MAX_LENGTH, { message: STRINGS.tooLong })
    .refine((q) => splitSearchKeywords(q).length > 0, { message: STRINGS.empty }),
});
type SearchForm = { q: string };

type ArticleSearchFormProps = {
  /** The search shown (from the URL); the box follows it when it changes (back button, keyword chips). */
  query: string;
  onSearch: (query: string) => void;
};

/** The search box of /search. */
export function ArticleSearchForm({ query, onSearch }: ArticleSearchFormProps) {
  const form = useZodForm<SearchForm>({ schema: searchFormSchema, defaultValues: { q: query }, mode: 'onSubmit' });

  useEffect(() => {
    form.reset({ q: query });
  }, [query, form.reset]);

  return (
    <Box
      component="form"
      role="search"
      noValidate
      onSubmit={form.handleSubmit((values) => onSearch(values.q))}
      sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, flexDirection: { xs: 'column', sm: 'row' } }}
    >
      <FormTextField
        control={form.control}
        name="q"
        label={STRINGS.label}
        placeholder={STRINGS.placeholder}
        fullWidth
        type="search"
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: ARTICLE_SEARCH_QUERY_MAX_LENGTH, 'data-testid': 'article-search-input' } }}
      />
      <Button
        type="submit"
        variant="contained"
        startIcon={<SearchRounded />}
        data-testid="article-search-submit"
        sx={{ flexShrink: 0, height: 56, width: { xs: '100%', sm: 'auto' }, minWidth: 112 }}
      >
        {STRINGS.submit}
      </Button>
    </Box>
  );
}
