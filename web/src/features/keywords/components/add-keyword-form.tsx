import AddRounded from '@mui/icons-material/AddRounded';
import { KEYWORD_LIMITS, type KeywordAddRequest, keywordAddRequestSchema } from '@radar/shared';
import { useEffect } from 'react';
import { InlineFieldForm } from '@/components/form/inline-field-form';
import { useZodForm } from '@/hooks/use-zod-form';
import { getErrorMessage } from '@/lib/api-client';
import { useAddKeyword } from '../hooks/use-keywords';
import { KEYWORD_STRINGS } from '../strings';

const STRINGS = KEYWORD_STRINGS.add;

type AddKeywordForm = { keyword: string };

type AddKeywordFormProps = {
  onAdded: (name: string) => void;
  /** Keywords followed on the page so far (this box or a suggestion): each one clears the box's complaint. */
  addedCount: number;
};

/**
 * The add box: the server's rules (trimmed, 1-100 characters) checked on submit; the server's answer to
 * a keyword already followed (409) or past the limit (400) is shown under the box.
 */
export function AddKeywordFormCard({ onAdded, addedCount }: AddKeywordFormProps) {
  // Checked on submit only: leaving the empty box to click a suggestion is no mistake.
  const form = useZodForm<AddKeywordForm, KeywordAddRequest>({
    schema: keywordAddRequestSchema,
    defaultValues: { keyword: '' },
    mode: 'onSubmit',
  });
  const add = useAddKeyword();
  const { clearErrors } = form;

  // 关键词不能为空 (or a refused add) answered the last attempt; once a keyword was followed, here or by
  // clicking a suggestion, it no longer describes anything and must not stay under the box.
  useEffect(() => {
    if (addedCount > 0) clearErrors('keyword');
  }, [addedCount, clearErrors]);

  const submit = form.handleSubmit((values) => {
    const name = values.keyword ?? '';
    add.mutate(name, {
      onSuccess: ({ keyword }) => {
        form.reset({ keyword: '' });
        onAdded(keyword.name);
      },
      onError: (error) => {
        form.setError('keyword', { type: 'server', message: getErrorMessage(error) }, { shouldFocus: true });
      },
    });
  });

  return (
    <InlineFieldForm
      onSubmit={submit}
      ariaLabel={STRINGS.title}
      field={{
        control: form.control,
        name: 'keyword',
        label: STRINGS.label,
        placeholder: STRINGS.placeholder,
        maxLength: KEYWORD_LIMITS.nameMaxLength,
        testId: 'keyword-add-input',
      }}
      submit={{ label: STRINGS.submit, icon: <AddRounded />, testId: 'keyword-add-submit', isPending: add.isPending }}
    />
  );
}
