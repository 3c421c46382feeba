import AddRounded from '@mui/icons-material/AddRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import EditOutlined from '@mui/icons-material/EditOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  INTEREST_LIMITS,
  type Interest,
  type InterestCreateRequest,
  type InterestUpdateRequest,
  interestCreateSchema,
  interestUpdateSchema,
} from '@radar/shared';
import { useEffect, useState } from 'react';
import { SectionCard } from '@/components/sections/section-card';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { createInterest, deleteInterest, updateInterest } from '../api/interests';
import { useFavoritesForInterests, useInterestChange, useInterests } from '../hooks/use-interests';

const TEXT = {
  title: '研究兴趣',
  description: `推荐按配额从每个兴趣中选取，避免一个主题挤占其他主题。最多 ${INTEREST_LIMITS.perReader} 个（含英文研究方向）。`,
  loading: '正在读取研究兴趣…',
  add: '添加兴趣',
  full: `已达 ${INTEREST_LIMITS.perReader} 个上限`,
  /**
   * What each interest is made from. The summary is the profile's English research direction, however it
   * was written (by a model, drafted offline term by term, from the reader's works, typed or edited by the
   * reader): the stored profile does not say which, so the label claims no author.
   */
  kinds: { summary: '英文研究方向', typed: '自定义描述', favourites: '来自收藏' },
  waiting: '等待生成向量，暂未参与推荐',
  quota: '配额',
  share: (share: number) => `约占推荐的 ${Math.round(share * 100)}%`,
  edit: '编辑',
  remove: '删除',
  created: '已添加研究兴趣',
  saved: '已保存研究兴趣',
  removed: '已删除研究兴趣',
  dialogNew: '添加研究兴趣',
  dialogEdit: '编辑研究兴趣',
  fromText: '输入描述',
  fromFavorites: '从收藏中选择',
  name: '兴趣名称',
  descriptionLabel: '兴趣描述（中文或英文）',
  descriptionHelp: '用几句话描述这个方向，例如研究对象、方法和问题',
  favoritesHelp: '选中的收藏论文的平均向量即为这个兴趣',
  noFavorites: '还没有收藏的论文：先在论文推荐或搜索中收藏几篇',
  cancel: '取消',
  save: '保存',
} as const;

type Draft = { mode: 'typed' | 'favourites'; name: string; description: string; paperIds: string[] };

/**
 * /my: the reader's research interests (beyond the spec). The research summary is the first and only has
 * a quota; up to four more are typed or made from favourites. Each quota slider sets its share of the
 * recommendations. A backend without interests answers 404: the section is left out.
 */
export function InterestsSection({ onNotify }: { onNotify: (message: string) => void }) {
  const interests = useInterests();
  const [editing, setEditing] = useState<Interest | 'new' | null>(null);
  const setQuota = useInterestChange(({ id, quota }: { id: string; quota: number }) => updateInterest(id, { quota }));
  const remove = useInterestChange(deleteInterest, () => onNotify(TEXT.removed));

  if (interests.isError && isApiError(interests.error) && interests.error.status === 404) return null;

  const list = interests.data?.interests ?? [];
  const isFull = list.length >= (interests.data?.max_interests ?? INTEREST_LIMITS.perReader);
  const changeError = setQuota.error ?? remove.error;

  return (
    <SectionCard
      id="interests"
      icon={<HubOutlined />}
      title={TEXT.title}
      description={TEXT.description}
      actions={
        interests.data ? (
          <Button
            variant="outlined"
            startIcon={<AddRounded />}
            disabled={isFull}
            onClick={() => setEditing('new')}
            data-testid="interest-add"
          >
            {isFull ? TEXT.full : TEXT.add}
          </Button>
        ) : null
      }
    >
      {interests.isPending ? <Typography color="text.secondary">{TEXT.loading}</Typography> : null}
      {interests.isError ? <Alert severity="error">{getErrorMessage(interests.error)}</Alert> : null}
      <Stack spacing={2} data-testid="interest-list">
        {list.map((interest) => (
          <InterestRow
            key={interest.id}
            interest={interest}
            onQuota={(quota) => setQuota.mutate({ id: interest.id, quota })}
            onEdit={() => setEditing(interest)}
            onRemove={() => remove.mutate(interest.id)}
            isBusy={remove.isPending || setQuota.isPending}
          />
        ))}
      </Stack>
      {changeError ? (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="interest-change-error">
          {getErrorMessage(changeError)}
        </Alert>
      ) : null}
      {editing ? (
        <InterestDialog
          interest={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            onNotify(message);
          }}
        />
      ) : null}
    </SectionCard>
  );
}

function InterestRow({
  interest,
  onQuota,
  onEdit,
  onRemove,
  isBusy,
}: {
  interest: Interest;
  onQuota: (quota: number) => void;
  onEdit: () => void;
  onRemove: () => void;
  isBusy: boolean;
}) {
  const [quota, setQuota] = useState(interest.quota);
  useEffect(() => setQuota(interest.quota), [interest.quota]);
  const isSummary = interest.kind === 'summary';
  return (
    <Box
      data-testid="interest-row"
      data-interest-id={interest.id}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }} data-testid="interest-name">
          {interest.name}
        </Typography>
        <Chip size="small" variant="outlined" label={TEXT.kinds[interest.kind]} />
        {interest.has_vector ? (
          <Typography variant="body2" color="text.secondary" data-testid="interest-share">
            {TEXT.share(interest.share)}
          </Typography>
        ) : (
          <Chip size="small" color="warning" variant="outlined" label={TEXT.waiting} />
        )}
        <Box sx={{ flexGrow: 1 }} />
        {isSummary ? null : (
          <>
            <IconButton aria-label={`${TEXT.edit} ${interest.name}`} onClick={onEdit} disabled={isBusy}>
              <EditOutlined fontSize="small" />
            </IconButton>
            <IconButton
              aria-label={`${TEXT.remove} ${interest.name}`}
              onClick={onRemove}
              disabled={isBusy}
              data-testid="interest-remove"
            >
              <DeleteOutlineRounded fontSize="small" />
            </IconButton>
          </>
        )}
      </Box>
      {interest.description ? (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ mt: 0.5, display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
        >
          {interest.description}
        </Typography>
      ) : null}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1 }}>
        <Typography variant="body2" id={`interest-quota-${interest.id}`}>
          {TEXT.quota} {quota}
        </Typography>
        <Slider
          value={quota}
          min={INTEREST_LIMITS.quotaMin}
          max={INTEREST_LIMITS.quotaMax}
          step={1}
          marks
          onChange={(_, value) => setQuota(value as number)}
          onChangeCommitted={(_, value) => {
            if (value !== interest.quota) onQuota(value as number);
          }}
          aria-labelledby={`interest-quota-${interest.id}`}
          sx={{ maxWidth: 280 }}
          data-testid="interest-quota"
        />
      </Box>
    </Box>
  );
}

/** The first message of each field of a refused draft (the shared schema, as the server checks it). */
function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'name');
    errors[field] ??= issue.message;
  }
  return errors;
}

function InterestDialog({
  interest,
  onClose,
  onSaved,
}: {
  interest: Interest | undefined;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [draft, setDraft] = useState<Draft>({
    mode: interest?.kind === 'favourites' ? 'favourites' : 'typed',
    name: interest?.name ?? '',
    description: interest?.description ?? '',
    paperIds: interest?.paper_ids ?? [],
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const favorites = useFavoritesForInterests(draft.mode === 'favourites');
  const create = useInterestChange(createInterest, () => onSaved(TEXT.created));
  const update = useInterestChange(
    (body: InterestUpdateRequest) => updateInterest(interest?.id ?? '', body),
    () => onSaved(TEXT.saved),
  );
  const saving = create.isPending || update.isPending;
  const failure = create.error ?? update.error;

  const submit = () => {
    const body =
      draft.mode === 'typed'
        ? { name: draft.name, description: draft.description }
        : { name: draft.name, paper_ids: draft.paperIds };
    if (interest) {
      const parsed = interestUpdateSchema.safeParse(body);
      if (!parsed.success) return setErrors(fieldErrors(parsed.error.issues));
      setErrors({});
      update.mutate(parsed.data);
    } else {
      const parsed = interestCreateSchema.safeParse(body);
      if (!parsed.success) return setErrors(fieldErrors(parsed.error.issues));
      setErrors({});
      create.mutate(parsed.data as InterestCreateRequest);
    }
  };

  const serverFields = isApiError(failure) ? failure.fields : undefined;
  const errorOf = (field: string) => errors[field] ?? serverFields?.[field]?.[0];

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="interest-dialog-title">
      <DialogTitle id="interest-dialog-title">{interest ? TEXT.dialogEdit : TEXT.dialogNew}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {interest ? null : (
            <ToggleButtonGroup
              exclusive
              size="small"
              value={draft.mode}
              onChange={(_, mode: Draft['mode'] | null) => mode && setDraft({ ...draft, mode })}
            >
              <ToggleButton value="typed" data-testid="interest-mode-typed">
                {TEXT.fromText}
              </ToggleButton>
              <ToggleButton value="favourites" data-testid="interest-mode-favourites">
                {TEXT.fromFavorites}
              </ToggleButton>
            </ToggleButtonGroup>
          )}
          <TextField
            label={TEXT.name}
            value={draft.name}
            onChange={(event) => setDraft({ ...draft, name: event.target.value })}
            error={Boolean(errorOf('name'))}
            helperText={errorOf('name') ?? `最多 ${INTEREST_LIMITS.nameMaxLength} 个字符`}
            slotProps={{ htmlInput: { 'data-testid': 'interest-name-input' } }}
          />
          {draft.mode === 'typed' ? (
            <TextField
              label={TEXT.descriptionLabel}
              value={draft.description}
              onChange={(event) => setDraft({ ...draft, description: event.target.value })}
              multiline
              minRows={3}
              error={Boolean(errorOf('description'))}
              helperText={errorOf('description') ?? TEXT.descriptionHelp}
              slotProps={{ htmlInput: { 'data-testid': 'interest-description-input' } }}
            />
          ) : (
            <Box>
              <Typography variant="body2" color={errorOf('paper_ids') ? 'error' : 'text.secondary'}>
                {errorOf('paper_ids') ?? TEXT.favoritesHelp}
              </Typography>
              {favorites.isError ? <Alert severity="error">{getErrorMessage(favorites.error)}</Alert> : null}
              {favorites.data?.length === 0 ? (
                <Typography variant="body2" sx={{ mt: 1 }}>
                  {TEXT.noFavorites}
                </Typography>
              ) : null}
              <Stack sx={{ maxHeight: 280, overflowY: 'auto', mt: 1 }}>
                {(favorites.data ?? []).map((paper) => (
                  <FormControlLabel
                    key={paper.id}
                    label={paper.title}
                    control={
                      <Checkbox
                        size="small"
                        checked={draft.paperIds.includes(paper.id)}
                        onChange={(event) =>
                          setDraft({
                            ...draft,
                            paperIds: event.target.checked
                              ? [...draft.paperIds, paper.id]
                              : draft.paperIds.filter((id) => id !== paper.id),
                          })
                        }
                      />
                    }
                  />
                ))}
              </Stack>
            </Box>
          )}
          {failure && !serverFields ? <Alert severity="error">{getErrorMessage(failure)}</Alert> : null}
          {failure && serverFields && !Object.keys(serverFields).some((field) => field in draftFields) ? (
            <Alert severity="error">{getErrorMessage(failure)}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{TEXT.cancel}</Button>
        <Button variant="contained" onClick={submit} loading={saving} data-testid="interest-save">
          {TEXT.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const draftFields = { name: true, description: true, paper_ids: true };
