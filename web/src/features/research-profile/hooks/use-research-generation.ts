import type { TaskSubmittedResponse } from '@radar/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { confirmResearchProfile } from '@/api/confirm-research-profile';
import { taskStatusQueryOptions } from '../api/get-task-status';
import { submitResearchAnalysis } from '../api/submit-research-analysis';
import { RESEARCH_STRINGS } from '../strings';
import { type AnalysisResult, buildProfileFromAnalysis, withoutDraftSummary } from '../utils/ai-profile';
import { describeGenerationError } from '../utils/generation-errors';
import { nextPollDelay, readTaskProgress, TASK_POLLING } from '../utils/research-task';

/**
 * The dialog's three stages; 'analysing' covers sending, polling and saving. A saved
 * result without an English summary goes to 'incomplete' instead of 'success': success is claimed only
 * when there is a summary, and the user writes one there (or leaves it for later). A summary the server
 * marks as a glossed draft (research_direction_origin 'offline-gloss') is not saved with the rest: it
 * waits in the incomplete stage's box for the user to check, edit and save.
 */
export type GenerationStage = 'input' | 'analysing' | 'incomplete' | 'success';

/** What the analysing stage is doing right now, for its status line. */
export type GenerationActivity = 'submitting' | 'polling' | 'saving' | null;

/**
 * What starts a run: pasted homepage text, or (beyond the spec) a submitter of another task the dialog
 * polls the same way, such as seeding the profile from one's own works, with its own polling length.
 */
export type GenerationRequest = string | { submit: () => Promise<TaskSubmittedResponse>; maxPolls: number };

type RunState = {
  stage: GenerationStage;
  taskId: string | null;
  /** Status answers after which the run gives up. */
  maxPolls: number;
  error: string | null;
  /** The saved result, for the incomplete stage's report. */
  result: AnalysisResult | null;
};

const INITIAL: RunState = { stage: 'input', taskId: null, maxPolls: TASK_POLLING.maxPolls, error: null, result: null };

/**
 * The research-info generation: send the text, poll the task every 2 s (at most 30
 * times, TanStack Query's refetchInterval), save the result at once through the confirm call, then
 * show success. Any failure returns to the input stage with its text. `restart` abandons the run:
 * answers of an abandoned run are ignored.
 */
export function useResearchGeneration({
  accountEmail,
  onSaved,
}: {
  accountEmail: string;
  /** Called after the result is saved (before the success stage), e.g. to reload the profile. */
  onSaved: () => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<RunState>(INITIAL);
  // Bumped by start and restart: callbacks of an older run see a different number and do nothing.
  const runId = useRef(0);
  // The task whose result is being saved, so the status answers that follow do not save it twice.
  const savedTaskId = useRef<string | null>(null);

  const submit = useMutation({
    mutationFn: (request: GenerationRequest) =>
      typeof request === 'string' ? submitResearchAnalysis(request) : request.submit(),
  });
  const save = useMutation({
    mutationFn: async (profile: ReturnType<typeof buildProfileFromAnalysis>) => {
      await confirmResearchProfile(profile);
      await onSaved();
    },
  });

  const isSaving = save.isPending;
  const isPolling = run.stage === 'analysing' && run.taskId !== null && !isSaving && savedTaskId.current !== run.taskId;
  const task = useQuery({
    ...taskStatusQueryOptions(run.taskId ?? ''),
    enabled: isPolling,
    refetchInterval: (query) => nextPollDelay(query.state.data, query.state.dataUpdateCount, run.maxPolls),
    refetchIntervalInBackground: true,
  });

  const fail = useCallback((message: string) => setRun({ ...INITIAL, error: message }), []);
  const { maxPolls } = run;

  const { data: status, error: statusError, isError: isStatusError } = task;
  const { mutate: saveProfile } = save;
  useEffect(() => {
    const { taskId } = run;
    if (run.stage !== 'analysing' || taskId === null || savedTaskId.current === taskId) return;
    if (isStatusError) {
      fail(describeGenerationError(statusError, 'status'));
      return;
    }
    if (!status || status.task_id !== taskId) return;
    // Answers so far for this task (the result object does not carry the count; the query's state does).
    const polls = queryClient.getQueryState(taskStatusQueryOptions(taskId).queryKey)?.dataUpdateCount ?? 0;
    const progress = readTaskProgress(status, polls, run.maxPolls);
    switch (progress.kind) {
      case 'waiting':
        return;
      case 'failed':
        fail(progress.message);
        return;
      case 'timed-out':
        fail(RESEARCH_STRINGS.errors.timedOut);
        return;
      case 'empty':
        fail(RESEARCH_STRINGS.errors.emptyResult);
        return;
    }

    savedTaskId.current = taskId;
    const current = runId.current;
    const { result } = progress;
    // A glossed draft is not saved yet: the user checks it in the incomplete stage, then saves it there.
    const saved = withoutDraftSummary(result);
    saveProfile(buildProfileFromAnalysis(saved, accountEmail), {
      onSuccess: () => {
        if (current !== runId.current) return;
        const stage = saved.research_summary_en === '' ? 'incomplete' : 'success';
        setRun({ stage, taskId, maxPolls, error: null, result });
      },
      onError: (error) => {
        if (current === runId.current) fail(describeGenerationError(error, 'save'));
      },
    });
  }, [run, maxPolls, status, statusError, isStatusError, accountEmail, saveProfile, fail, queryClient]);

  const start = useCallback(
    (request: GenerationRequest) => {
      const current = ++runId.current;
      savedTaskId.current = null;
      const polls = typeof request === 'string' ? TASK_POLLING.maxPolls : request.maxPolls;
      setRun({ stage: 'analysing', taskId: null, maxPolls: polls, error: null, result: null });
      submit.mutate(request, {
        onSuccess: ({ task_id }) => {
          if (current === runId.current) {
            setRun({ stage: 'analysing', taskId: task_id, maxPolls: polls, error: null, result: null });
          }
        },
        onError: (error) => {
          if (current === runId.current) fail(describeGenerationError(error, 'submit'));
        },
      });
    },
    [submit.mutate, fail],
  );

  /**
   * The incomplete stage's English paragraph: saved through the confirm call with the rest of the
   * result, then the success stage. A failure stays on the incomplete stage with its message.
   */
  const saveSummary = useCallback(
    (summary: string) => {
      const { result, taskId } = run;
      if (run.stage !== 'incomplete' || result === null) return;
      const current = runId.current;
      const { research_direction_origin: _draft, ...rest } = result;
      const completed: AnalysisResult = { ...rest, research_summary_en: summary.trim() };
      setRun({ ...run, error: null });
      saveProfile(buildProfileFromAnalysis(completed, accountEmail), {
        onSuccess: () => {
          if (current === runId.current) setRun({ stage: 'success', taskId, maxPolls, error: null, result: completed });
        },
        onError: (error) => {
          if (current === runId.current) {
            setRun({ stage: 'incomplete', taskId, maxPolls, error: describeGenerationError(error, 'save'), result });
          }
        },
      });
    },
    [run, maxPolls, accountEmail, saveProfile],
  );

  const restart = useCallback(() => {
    runId.current += 1;
    savedTaskId.current = null;
    setRun(INITIAL);
    submit.reset();
    save.reset();
    queryClient.removeQueries({ queryKey: ['research-tasks'] });
  }, [submit.reset, save.reset, queryClient]);

  const activity: GenerationActivity =
    run.stage !== 'analysing' ? null : run.taskId === null ? 'submitting' : isSaving ? 'saving' : 'polling';

  return {
    stage: run.stage,
    taskId: run.taskId,
    error: run.error,
    result: run.result,
    activity,
    /** Work is under way: the dialog cannot be closed. */
    isBusy: run.stage === 'analysing' || (run.stage === 'incomplete' && isSaving),
    isSavingSummary: run.stage === 'incomplete' && isSaving,
    start,
    saveSummary,
    restart,
  };
}
