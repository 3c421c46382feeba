import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { OWN_WORKS_LIMITS } from '@radar/shared';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { submitAuthorId, submitLibraryFile } from '../api/submit-own-works';
import type { GenerationRequest } from '../hooks/use-research-generation';
import { RESEARCH_STRINGS } from '../strings';
import { OWN_WORKS_MAX_POLLS } from '../utils/research-task';

const STRINGS = RESEARCH_STRINGS.dialog;
/** The form the dialog's start button submits (the same id as the homepage form, which is not shown then). */
const FORM_ID = 'research-dialog-form';
/** 16 digits (the last may be X), with or without hyphens, or the orcid.org URL; the server checks the check digit. */
const ORCID_SHAPE = /^(https?:\/\/(www\.)?orcid\.org\/)?\d{4}-?\d{4}-?\d{4}-?\d{3}[\dxX]$/;
const OPENALEX_SHAPE = /^(https?:\/\/(api\.)?openalex\.org\/(authors\/)?)?A\d{4,12}$/i;

/**
 * The ORCID iD (or, when the server has OpenAlex, an OpenAlex author id) the reader's works are read
 * from. `onReady` tells the dialog whether the start button may be pressed.
 */
export function AuthorIdInput({
  withOpenAlex,
  onStart,
  onReady,
}: {
  withOpenAlex: boolean;
  onStart: (request: GenerationRequest) => void;
  onReady: (isReady: boolean) => void;
}) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const isWellFormed = (text: string) =>
    ORCID_SHAPE.test(text.trim()) || (withOpenAlex && OPENALEX_SHAPE.test(text.trim()));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const authorId = value.trim();
    if (!isWellFormed(authorId)) {
      setProblem(STRINGS.authorIdInvalid);
      return;
    }
    onStart({ submit: () => submitAuthorId(authorId), maxPolls: OWN_WORKS_MAX_POLLS });
  };
  return (
    <OwnWorksForm onSubmit={submit} instructions={STRINGS.authorIdInstructions} testId="own-works-author-form">
      <TextField
        label={STRINGS.authorIdLabel(withOpenAlex)}
        placeholder={STRINGS.authorIdPlaceholder}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setProblem(null);
          onReady(event.target.value.trim() !== '');
        }}
        fullWidth
        autoFocus
        error={problem !== null}
        helperText={problem ?? ' '}
        slotProps={{ htmlInput: { 'data-testid': 'own-works-author-id', spellCheck: false, autoComplete: 'off' } }}
      />
    </OwnWorksForm>
  );
}

/** A library export file (BibTeX, RIS, CSL-JSON) read in the browser and sent as text. */
export function LibraryFileInput({
  onStart,
  onReady,
}: {
  onStart: (request: GenerationRequest) => void;
  onReady: (isReady: boolean) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    let content: string;
    try {
      content = await file.text();
    } catch {
      setProblem(STRINGS.fileUnreadable);
      return;
    }
    if (content.length > OWN_WORKS_LIMITS.maxFileChars) {
      setProblem(STRINGS.fileTooLarge);
      return;
    }
    onStart({ submit: () => submitLibraryFile(file.name, content), maxPolls: OWN_WORKS_MAX_POLLS });
  };
  return (
    <OwnWorksForm onSubmit={submit} instructions={STRINGS.libraryInstructions} testId="own-works-library-form">
      <input
        ref={picker}
        type="file"
        hidden
        accept=".bib,.bibtex,.ris,.json,application/json,text/plain"
        data-testid="own-works-file"
        onChange={(event) => {
          const chosen = event.target.files?.[0] ?? null;
          const tooLarge = chosen !== null && chosen.size > OWN_WORKS_LIMITS.maxFileChars * 4;
          setFile(tooLarge ? null : chosen);
          setProblem(tooLarge ? STRINGS.fileTooLarge : null);
          onReady(chosen !== null && !tooLarge);
        }}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => picker.current?.click()}>
          {STRINGS.chooseFile}
        </Button>
        <Typography variant="body2" color={problem ? 'error' : 'text.secondary'} role={problem ? 'alert' : undefined}>
          {problem ?? (file ? STRINGS.chosenFile(file.name) : STRINGS.noFile)}
        </Typography>
      </Box>
    </OwnWorksForm>
  );
}

type OwnWorksFormProps = {
  onSubmit: (event: FormEvent) => void;
  instructions: string;
  testId: string;
  children: ReactNode;
};

/** The dialog's form (its footer's button submits it by FORM_ID): what to give, then the input. */
function OwnWorksForm({ onSubmit, instructions, testId, children }: OwnWorksFormProps) {
  return (
    <Box component="form" id={FORM_ID} noValidate onSubmit={onSubmit} data-testid={testId}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {instructions}
      </Typography>
      {children}
    </Box>
  );
}
