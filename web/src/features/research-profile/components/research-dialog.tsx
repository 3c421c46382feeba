import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { countCharacters, LIMITS, researchDescriptionRequestSchema } from '@radar/shared';
import { type FormEvent, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { usePublicConfig } from '@/api/public-config';
import { useZodForm } from '@/hooks/use-zod-form';
import {
  type GenerationActivity,
  type GenerationRequest,
  type GenerationStage,
  useResearchGeneration,
} from '../hooks/use-research-generation';
import { RESEARCH_STRINGS } from '../strings';
import {
  type AnalysisReportItem,
  type AnalysisResult,
  checkEnglishSummary,
  isDraftSummary,
  reportAnalysis,
  SUMMARY_MAX_LENGTH,
} from '../utils/ai-profile';
import { researchFieldLabel } from '../utils/research-fields';
import { AuthorIdInput, LibraryFileInput } from './own-works-input';

const STRINGS = RESEARCH_STRINGS.dialog;
const STAGES: readonly GenerationStage[] = ['input', 'analysing', 'success'];
/** The stepper's step of each stage: an incomplete result sits on the last step, not completed. */
const STEP_OF: Record<GenerationStage, number> = { input: 0, analysing: 1, incomplete: 2, success: 2 };
const STAGE_LABELS: Record<GenerationStage, string> = {
  input: '粘贴主页文字',
  analysing: 'AI 分析',
  incomplete: '完成',
  success: '完成',
};

/** Where the dialog's research info comes from: pasted homepage text, or (beyond the spec) the reader's own works. */
type InputSource = 'homepage' | 'authorId' | 'library';

type DescriptionForm = { research_description: string };
type DescriptionRequest = z.output<typeof researchDescriptionRequestSchema>;

type ResearchDialogProps = {
  open: boolean;
  onClose: () => void;
  accountEmail: string;
  /** The text pasted last time (the profile's research_description), to start from. */
  initialDescription: string;
  onSaved: () => Promise<void>;
};

/**
 * The three-stage research-info dialog: paste a homepage's text, the AI
 * analyses it, the result is saved. It cannot be closed while the analysis or the save runs.
 */
export function ResearchDialog({ open, onClose, accountEmail, initialDescription, onSaved }: ResearchDialogProps) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const generation = useResearchGeneration({ accountEmail, onSaved });
  const form = useZodForm<DescriptionForm, DescriptionRequest>({
    schema: researchDescriptionRequestSchema,
    defaultValues: { research_description: initialDescription },
  });
  const description = useWatch({ control: form.control, name: 'research_description' });
  const isBlank = description.trim() === '';
  // Characters as the reader counts them (6 emoji are 6, not 12), for the counter and the limit alike.
  const characterCount = countCharacters(description);
  const isTooLong = countCharacters(description.trim()) > LIMITS.researchDescriptionMaxLength;
  // The own-works options appear only when the server says it offers them (GET /api/config/).
  const { ownWorks } = usePublicConfig().data ?? { ownWorks: { orcid: false, openalex: false, library: false } };
  const sources: InputSource[] = [
    'homepage',
    ...(ownWorks.orcid || ownWorks.openalex ? (['authorId'] as const) : []),
    ...(ownWorks.library ? (['library'] as const) : []),
  ];
  const [source, setSource] = useState<InputSource>('homepage');
  const [isOwnWorksReady, setIsOwnWorksReady] = useState(false);
  const [isOwnWorksRun, setIsOwnWorksRun] = useState(false);
  const start = (request: GenerationRequest) => {
    setIsOwnWorksRun(typeof request !== 'string');
    generation.start(request);
  };
  const stageLabels = { ...STAGE_LABELS, input: source === 'homepage' ? STAGE_LABELS.input : STRINGS.ownWorksStage };

  const close = () => {
    if (generation.isBusy) return;
    if (generation.stage === 'success' || generation.stage === 'incomplete') generation.restart();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth="sm"
      fullScreen={isPhone}
      aria-labelledby="research-dialog-title"
      data-testid="research-dialog"
      data-stage={generation.stage}
    >
      <DialogTitle id="research-dialog-title">{STRINGS.title}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={STEP_OF[generation.stage]} alternativeLabel sx={{ mb: 3 }}>
          {STAGES.map((stage) => (
            <Step key={stage} completed={STEP_OF[stage] < STEP_OF[generation.stage]}>
              <StepLabel>{stageLabels[stage]}</StepLabel>
            </Step>
          ))}
        </Stepper>

        {generation.stage === 'input' && sources.length > 1 ? (
          <ToggleButtonGroup
            value={source}
            exclusive
            fullWidth
            size="small"
            color="primary"
            aria-label={STRINGS.sourcePicker}
            onChange={(_event, next: InputSource | null) => {
              if (!next) return;
              setSource(next);
              setIsOwnWorksReady(false);
            }}
            sx={{ mb: 2 }}
            data-testid="research-dialog-sources"
          >
            {sources.map((option) => (
              <ToggleButton key={option} value={option} data-testid={`research-dialog-source-${option}`}>
                {option === 'authorId' && !ownWorks.orcid ? 'OpenAlex' : STRINGS.sources[option]}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        ) : null}

        {generation.stage === 'input' && source !== 'homepage' && generation.error ? (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="research-dialog-error">
            {generation.error}
          </Alert>
        ) : null}
        {generation.stage === 'input' && source === 'authorId' ? (
          <AuthorIdInput withOpenAlex={ownWorks.openalex} onStart={start} onReady={setIsOwnWorksReady} />
        ) : null}
        {generation.stage === 'input' && source === 'library' ? (
          <LibraryFileInput onStart={start} onReady={setIsOwnWorksReady} />
        ) : null}

        {generation.stage === 'input' && source === 'homepage' ? (
          <Box
            component="form"
            id="research-dialog-form"
            noValidate
            onSubmit={form.handleSubmit(({ research_description }) => start(research_description))}
          >
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {STRINGS.instructions}
            </Typography>
            {generation.error ? (
              <Alert severity="error" sx={{ mb: 2 }} data-testid="research-dialog-error">
                {generation.error}
              </Alert>
            ) : null}
            <Controller
              control={form.control}
              name="research_description"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  label={STRINGS.inputLabel}
                  placeholder={STRINGS.inputPlaceholder}
                  multiline
                  minRows={isPhone ? 10 : 8}
                  maxRows={16}
                  fullWidth
                  autoFocus
                  error={fieldState.invalid || isTooLong}
                  helperText={
                    <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
                      <span>{fieldState.error?.message ?? (isTooLong ? STRINGS.tooLong : '')}</span>
                      <span data-testid="research-dialog-counter">{STRINGS.counter(characterCount)}</span>
                    </Box>
                  }
                  slotProps={{ htmlInput: { 'data-testid': 'research-dialog-input' } }}
                />
              )}
            />
          </Box>
        ) : null}

        {generation.stage === 'analysing' ? (
          <AnalysingPanel taskId={generation.taskId} activity={generation.activity} isOwnWorks={isOwnWorksRun} />
        ) : null}

        {generation.stage === 'incomplete' && generation.result ? (
          <IncompletePanel
            result={generation.result}
            accountEmail={accountEmail}
            error={generation.error}
            onSave={generation.saveSummary}
          />
        ) : null}

        {generation.stage === 'success' ? (
          <Box sx={{ textAlign: 'center', py: 3 }} role="status" data-testid="research-dialog-success">
            <CheckCircleRounded color="success" sx={{ fontSize: 56 }} aria-hidden />
            <Typography variant="h5" component="p" sx={{ mt: 1.5 }}>
              {STRINGS.successTitle}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {STRINGS.successBody}
            </Typography>
          </Box>
        ) : null}
      </DialogContent>

      <DialogActions sx={{ px: 3, pb: 2.5, flexWrap: 'wrap', rowGap: 1 }}>
        {generation.stage === 'input' && source === 'homepage' && isTooLong ? (
          // Beside the disabled button, where the reader looks: a long paste pushes the box's own message
          // below the fold.
          <Typography
            variant="body2"
            color="error"
            role="alert"
            sx={{ mr: 'auto', flex: '1 1 240px' }}
            data-testid="research-dialog-too-long"
          >
            {STRINGS.tooLongNow(characterCount)}
          </Typography>
        ) : null}
        {generation.stage === 'input' ? (
          <>
            <Button color="inherit" onClick={close} data-testid="research-dialog-cancel">
              {STRINGS.cancel}
            </Button>
            <Button
              type="submit"
              form="research-dialog-form"
              variant="contained"
              disabled={source === 'homepage' ? isBlank || isTooLong : !isOwnWorksReady}
              data-testid="research-dialog-start"
            >
              {STRINGS.start}
            </Button>
          </>
        ) : null}
        {generation.stage === 'analysing' ? (
          <Button color="inherit" onClick={generation.restart} data-testid="research-dialog-restart">
            {STRINGS.restart}
          </Button>
        ) : null}
        {generation.stage === 'incomplete' ? (
          <>
            <Button
              color="inherit"
              onClick={close}
              disabled={generation.isSavingSummary}
              data-testid="research-dialog-later"
            >
              {STRINGS.later}
            </Button>
            <Button
              type="submit"
              form="research-dialog-summary-form"
              variant="contained"
              disabled={generation.isSavingSummary}
              data-testid="research-dialog-save-summary"
            >
              {generation.isSavingSummary ? STRINGS.savingSummary : STRINGS.saveSummary}
            </Button>
          </>
        ) : null}
        {generation.stage === 'success' ? (
          <Button variant="contained" onClick={close} autoFocus data-testid="research-dialog-confirm">
            {STRINGS.confirm}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}

function AnalysingPanel({
  taskId,
  activity,
  isOwnWorks,
}: {
  taskId: string | null;
  activity: GenerationActivity;
  isOwnWorks: boolean;
}) {
  const detail =
    activity === 'submitting'
      ? STRINGS.submitting
      : activity === 'saving'
        ? STRINGS.saving
        : isOwnWorks
          ? STRINGS.importDuration
          : STRINGS.duration;
  return (
    <Box sx={{ textAlign: 'center', py: 3 }} data-testid="research-dialog-analysing">
      <CircularProgress aria-label={STRINGS.analysing} />
      <Box role="status" aria-live="polite">
        <Typography variant="h6" component="p" sx={{ mt: 2 }}>
          {isOwnWorks ? STRINGS.importing : STRINGS.analysing}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {detail}
        </Typography>
      </Box>
      {taskId ? (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ display: 'block', mt: 2, fontFamily: 'monospace', overflowWrap: 'anywhere' }}
          data-testid="research-dialog-task-id"
        >
          {STRINGS.taskId(taskId)}
        </Typography>
      ) : null}
    </Box>
  );
}

const SUMMARY_ERRORS = {
  required: STRINGS.summaryRequired,
  'too-long': STRINGS.summaryTooLong,
  'not-english': STRINGS.summaryNotEnglish,
} as const;

function reportText(item: AnalysisReportItem): string {
  if (item.value !== null) return item.key === 'summary' ? STRINGS.reportSummaryDone : item.value;
  if (item.reason === 'not-own-page') return STRINGS.reportNotOwnPage;
  if (item.reason === 'draft') return STRINGS.reportSummaryDraft;
  if (item.key === 'summary') return STRINGS.reportNotFound;
  return item.key === 'fields' ? STRINGS.reportFieldsNotFound : STRINGS.reportPersonalNotFound;
}

/**
 * A saved result without an English summary: says what was and was not produced (and, when the server
 * tells, that offline rules made it), and keeps the user on the next step: an English paragraph written
 * here, or an AI model the operator configures. When the server sent a glossed English draft, the box
 * starts with it and the panel says how it was made and that it needs checking.
 */
function IncompletePanel({
  result,
  accountEmail,
  error,
  onSave,
}: {
  result: AnalysisResult;
  accountEmail: string;
  error: string | null;
  onSave: (summary: string) => void;
}) {
  const draft = isDraftSummary(result);
  const fromOwnWorks = result.research_direction_origin === 'own-works';
  // A glossed draft starts in the box, to be checked and edited; otherwise the user writes the paragraph.
  const [summary, setSummary] = useState(draft ? result.research_summary_en : '');
  const [problem, setProblem] = useState<keyof typeof SUMMARY_ERRORS | null>(null);
  // Works name co-authors, not the reader: the personal rows say nothing useful after an import.
  const report = reportAnalysis(result, accountEmail, researchFieldLabel).filter(
    (item) => !fromOwnWorks || item.key === 'summary' || item.key === 'fields',
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkEnglishSummary(summary);
    setProblem(found);
    if (found === null) onSave(summary);
  };
  return (
    <Box
      component="form"
      id="research-dialog-summary-form"
      noValidate
      onSubmit={submit}
      data-testid="research-dialog-incomplete"
    >
      {draft ? (
        <Alert severity="info" sx={{ mb: 2 }} role="status" data-testid="research-dialog-draft">
          <Typography component="p" sx={{ fontWeight: 600 }}>
            {fromOwnWorks ? STRINGS.ownWorksDraftTitle : STRINGS.draftTitle}
          </Typography>
          <Typography component="p" variant="body2" data-testid="research-dialog-draft-body">
            {fromOwnWorks
              ? STRINGS.ownWorksDraftBody(result.own_works?.found ?? 0, result.own_works?.stored ?? 0)
              : STRINGS.draftBody}
          </Typography>
        </Alert>
      ) : (
        <Alert severity="warning" sx={{ mb: 2 }} role="status">
          <Typography component="p" sx={{ fontWeight: 600 }}>
            {STRINGS.partialTitle}
          </Typography>
          <Typography component="p" variant="body2">
            {STRINGS.partialBody}
          </Typography>
          {result.source === 'offline' ? (
            <Typography component="p" variant="body2" sx={{ mt: 0.5 }} data-testid="research-dialog-offline">
              {STRINGS.partialOffline}
            </Typography>
          ) : null}
        </Alert>
      )}
      <Typography variant="subtitle2" component="h3">
        {STRINGS.reportTitle}
      </Typography>
      <Box
        component="dl"
        sx={{ m: 0, mb: 2, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5 }}
      >
        {report.map((item) => (
          <Box key={item.key} sx={{ display: 'contents' }} data-testid={`research-dialog-report-${item.key}`}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {STRINGS.reportLabels[item.key]}
            </Typography>
            <Typography
              component="dd"
              variant="body2"
              sx={{ m: 0 }}
              color={item.value === null ? 'warning.main' : 'text.primary'}
            >
              {fromOwnWorks && item.reason === 'draft' ? STRINGS.reportOwnWorks : reportText(item)}
            </Typography>
          </Box>
        ))}
      </Box>
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="research-dialog-error">
          {error}
        </Alert>
      ) : null}
      <TextField
        label={STRINGS.summaryInputLabel}
        value={summary}
        onChange={(event) => {
          setSummary(event.target.value);
          if (problem) setProblem(null);
        }}
        multiline
        minRows={5}
        maxRows={12}
        fullWidth
        autoFocus
        error={problem !== null}
        helperText={
          problem
            ? SUMMARY_ERRORS[problem]
            : fromOwnWorks
              ? STRINGS.ownWorksDraftHelper
              : draft
                ? STRINGS.draftInputHelper
                : STRINGS.summaryInputHelper
        }
        slotProps={{ htmlInput: { maxLength: SUMMARY_MAX_LENGTH + 1, 'data-testid': 'research-dialog-summary-input' } }}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
        {STRINGS.askOperator}
      </Typography>
    </Box>
  );
}
