import SearchRounded from '@mui/icons-material/SearchRounded';
import { ARTICLE_SEARCH_QUERY_MAX_LENGTH, splitSearchKeywords } from '@radar/shared';
import { useEffect } from 'react';
import { z } from 'zod';
import { InlineFieldForm } from '@/components/form/inline-field-form';
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
    <InlineFieldForm
      role="search"
      onSubmit={form.handleSubmit((values) => onSearch(values.q))}
      field={{
        control: form.control,
        name: 'q',
        label: STRINGS.label,
        placeholder: STRINGS.placeholder,
        type: 'search',
        maxLength: ARTICLE_SEARCH_QUERY_MAX_LENGTH,
        testId: 'article-search-input',
      }}
      submit={{ label: STRINGS.submit, icon: <SearchRounded />, testId: 'article-search-submit' }}
    />
  );
}
