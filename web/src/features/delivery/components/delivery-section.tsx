import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DATE_FILTER_LABELS,
  DEFAULT_TIME_ZONE,
  type DeliverySettings,
  WEBHOOK_PLATFORM_LABELS,
  WEBHOOK_PLATFORMS,
  type WebhookPlatform,
} from '@radar/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { SectionCard } from '@/components/sections/section-card';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { getLocalStorage, readStoredObject } from '@/lib/recommendation-params';
import {
  DELIVERY_SETTINGS_QUERY_KEY,
  type DeliveryScheduleInput,
  getDeliverySettings,
  regenerateDeliveryFeed,
  removeDeliveryWebhook,
  revokeDeliveryFeed,
  saveDeliverySettings,
  saveDeliveryWebhook,
  testDeliveryWebhook,
} from '../api/delivery';
import { DELIVERY_STRINGS as S } from '../strings';

/** Where /papers and /news keep their applied settings in this browser (their features own the format). */
const PAPER_PARAMS_KEY = 'recommendationParams';
const NEWS_PARAMS_KEY = 'newsRecommendationParams';

/** The hours a digest can go out at, 00:00 to 23:00 of the reader's zone. */
const HOURS = Array.from({ length: 24 }, (_, index) => index);

const isDateLabel = (value: unknown) => typeof value === 'string' && DATE_FILTER_LABELS.includes(value as never);

/** The /papers and /news settings of this browser, for the digest to rank with (undefined: keep the saved ones). */
function filtersFromThisBrowser(): Pick<DeliveryScheduleInput, 'paper_filters' | 'news_filters'> {
  const storage = getLocalStorage();
  const paper = readStoredObject(storage, PAPER_PARAMS_KEY);
  const news = readStoredObject(storage, NEWS_PARAMS_KEY);
  const threshold = (value: unknown) => (typeof value === 'number' && value >= 0 && value <= 1 ? value : undefined);
  const dates = (value: unknown) => (Array.isArray(value) ? value.filter(isDateLabel) : undefined);
  const result: Pick<DeliveryScheduleInput, 'paper_filters' | 'news_filters'> = {};
  if (paper && threshold(paper.threshold) !== undefined && dates(paper.dateFilter)) {
    const tiers = Array.isArray(paper.excludedJCR)
      ? paper.excludedJCR.filter((tier): tier is 1 | 2 | 3 | 4 => [1, 2, 3, 4].includes(tier as number))
      : [];
    result.paper_filters = {
      threshold: threshold(paper.threshold) as number,
      excluded_jcr: tiers,
      date_filter: dates(paper.dateFilter) as NonNullable<DeliverySettings['paper_filters']>['date_filter'],
    };
  }
  if (news && threshold(news.threshold) !== undefined && dates(news.dateFilter)) {
    result.news_filters = {
      threshold: threshold(news.threshold) as number,
      date_filter: dates(news.dateFilter) as NonNullable<DeliverySettings['news_filters']>['date_filter'],
    };
  }
  return result;
}

/** The browser's zone first, then common ones, then the saved one when it is none of them. */
function timeZoneOptions(saved: string): string[] {
  const browser = Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE;
  return [...new Set([saved, browser, ...S.commonTimeZones])];
}

const formatInstant = (iso: string | null, timeZone: string) =>
  iso
    ? new Intl.DateTimeFormat('zh-CN', {
        timeZone,
        month: 'long',
        day: 'numeric',
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(iso))
    : '';

/**
 * 推送与订阅 on /my (not in the spec): a daily or weekly digest of the top recommendations by mail at
 * the reader's hour in their zone, a secret Atom feed address, and a WeCom, Feishu or DingTalk group
 * robot. A backend without delivery answers 404: the section is left out.
 */
export function DeliverySection({ email, onNotify }: { email: string; onNotify: (message: string) => void }) {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: DELIVERY_SETTINGS_QUERY_KEY,
    queryFn: ({ signal }) => getDeliverySettings({ signal }),
  });
  const setSettings = (next: DeliverySettings) => queryClient.setQueryData(DELIVERY_SETTINGS_QUERY_KEY, next);

  if (settings.isError && isApiError(settings.error) && settings.error.status === 404) return null;

  return (
    <SectionCard id="delivery" icon={<NotificationsActiveOutlined />} title={S.title} description={S.description}>
      {settings.isPending ? (
        <Typography color="text.secondary">{S.loading}</Typography>
      ) : settings.isError ? (
        <Alert severity="error">{getErrorMessage(settings.error)}</Alert>
      ) : (
        <Stack spacing={3} divider={<Divider flexItem />}>
          <ScheduleForm settings={settings.data} email={email} onSaved={setSettings} onNotify={onNotify} />
          <FeedPanel settings={settings.data} onChanged={setSettings} onNotify={onNotify} />
          <WebhookPanel settings={settings.data} onChanged={setSettings} onNotify={onNotify} />
        </Stack>
      )}
    </SectionCard>
  );
}

type PanelProps = { settings: DeliverySettings; onNotify: (message: string) => void };

function ScheduleForm({
  settings,
  email,
  onSaved,
  onNotify,
}: PanelProps & { email: string; onSaved: (s: DeliverySettings) => void }) {
  const [form, setForm] = useState<DeliveryScheduleInput>(() => ({
    frequency: settings.frequency,
    weekday: settings.weekday,
    hour: settings.hour,
    time_zone:
      settings.frequency === 'off' && !settings.last_delivered_at
        ? Intl.DateTimeFormat().resolvedOptions().timeZone || settings.time_zone
        : settings.time_zone,
    email_enabled: settings.email_enabled,
  }));
  const save = useMutation({
    mutationFn: () => saveDeliverySettings({ ...form, ...filtersFromThisBrowser() }),
    onSuccess: (saved) => {
      onSaved(saved);
      onNotify(S.saved);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const set = <K extends keyof DeliveryScheduleInput>(key: K, value: DeliveryScheduleInput[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  return (
    <Box component="form" onSubmit={submit} noValidate data-testid="delivery-schedule">
      <PartHeading title={S.schedule.title} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <ScheduleSelect
          label={S.schedule.frequency}
          value={form.frequency}
          options={(['off', 'daily', 'weekly'] as const).map((value) => [value, S.schedule.frequencies[value]])}
          onChange={(value) => set('frequency', value as DeliveryScheduleInput['frequency'])}
          minWidth={120}
          testId="delivery-frequency"
        />
        {form.frequency === 'weekly' ? (
          <ScheduleSelect
            label={S.schedule.weekday}
            value={form.weekday}
            options={S.schedule.weekdays.map((name, index) => [index + 1, name])}
            onChange={(value) => set('weekday', Number(value))}
            minWidth={110}
          />
        ) : null}
        {form.frequency !== 'off' ? (
          <>
            <ScheduleSelect
              label={S.schedule.hour}
              value={form.hour}
              options={HOURS.map((hour) => [hour, `${String(hour).padStart(2, '0')}:00`])}
              onChange={(value) => set('hour', Number(value))}
              minWidth={110}
            />
            <ScheduleSelect
              label={S.schedule.timeZone}
              value={form.time_zone}
              options={timeZoneOptions(form.time_zone).map((zone) => [zone, zone])}
              onChange={(value) => set('time_zone', value)}
              minWidth={200}
            />
          </>
        ) : null}
      </Box>
      {form.frequency !== 'off' ? (
        <FormControlLabel
          sx={{ mt: 1 }}
          control={
            <Checkbox checked={form.email_enabled} onChange={(event) => set('email_enabled', event.target.checked)} />
          }
          label={S.schedule.email(email)}
        />
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {S.schedule.note}
      </Typography>
      {settings.next_delivery_at ? (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="delivery-next">
          {S.schedule.next(formatInstant(settings.next_delivery_at, settings.time_zone))}
        </Typography>
      ) : null}
      {save.isError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {getErrorMessage(save.error)}
        </Alert>
      ) : null}
      <Button type="submit" variant="contained" sx={{ mt: 2 }} loading={save.isPending} data-testid="delivery-save">
        {S.schedule.save}
      </Button>
    </Box>
  );
}

function FeedPanel({ settings, onChanged, onNotify }: PanelProps & { onChanged: (s: DeliverySettings) => void }) {
  const queryClient = useQueryClient();
  const [feedUrl, setFeedUrl] = useState<string | null>(null);
  const regenerate = useMutation({
    mutationFn: regenerateDeliveryFeed,
    onSuccess: async (answer) => {
      setFeedUrl(answer.feed_url);
      await queryClient.invalidateQueries({ queryKey: DELIVERY_SETTINGS_QUERY_KEY });
    },
  });
  const revoke = useMutation({
    mutationFn: revokeDeliveryFeed,
    onSuccess: (next) => {
      setFeedUrl(null);
      onChanged(next);
      onNotify(S.feed.revoked);
    },
  });
  const copy = async () => {
    if (!feedUrl) return;
    try {
      await navigator.clipboard.writeText(feedUrl);
      onNotify(S.feed.copied);
    } catch {
      onNotify(S.feed.copyByHand);
    }
  };
  return (
    <Box data-testid="delivery-feed">
      <PartHeading title={S.feed.title} description={S.feed.description} />
      {feedUrl ? (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1.5 }}>
          <TextField
            value={feedUrl}
            label={S.feed.urlLabel}
            fullWidth
            size="small"
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'delivery-feed-url' } }}
            onFocus={(event) => event.target.select()}
          />
          <Button variant="outlined" onClick={copy}>
            {S.feed.copy}
          </Button>
        </Box>
      ) : settings.feed_enabled ? (
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {S.feed.exists}
        </Typography>
      ) : null}
      {regenerate.isError || revoke.isError ? (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {getErrorMessage(regenerate.error ?? revoke.error)}
        </Alert>
      ) : null}
      <Stack direction="row" spacing={1}>
        <Button
          variant="outlined"
          onClick={() => regenerate.mutate()}
          loading={regenerate.isPending}
          data-testid="delivery-feed-generate"
        >
          {settings.feed_enabled || feedUrl ? S.feed.regenerate : S.feed.generate}
        </Button>
        {settings.feed_enabled ? (
          <Button color="inherit" onClick={() => revoke.mutate()} loading={revoke.isPending}>
            {S.feed.revoke}
          </Button>
        ) : null}
      </Stack>
    </Box>
  );
}

function WebhookPanel({ settings, onChanged, onNotify }: PanelProps & { onChanged: (s: DeliverySettings) => void }) {
  const [platform, setPlatform] = useState<WebhookPlatform>(settings.webhook?.platform ?? 'wecom');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  useEffect(() => {
    if (settings.webhook) setPlatform(settings.webhook.platform);
  }, [settings.webhook]);
  const save = useMutation({
    mutationFn: () => saveDeliveryWebhook({ platform, url, ...(secret.trim() ? { secret } : {}) }),
    onSuccess: (next) => {
      onChanged(next);
      setUrl('');
      setSecret('');
      onNotify(S.webhook.saved);
    },
  });
  const remove = useMutation({
    mutationFn: removeDeliveryWebhook,
    onSuccess: (next) => {
      onChanged(next);
      onNotify(S.webhook.removed);
    },
  });
  const test = useMutation({ mutationFn: testDeliveryWebhook, onSuccess: (answer) => onNotify(answer.message) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const fieldError = save.isError && isApiError(save.error) ? save.error.fields?.url?.[0] : undefined;
  const error = save.error ?? remove.error ?? test.error;
  return (
    <Box component="form" onSubmit={submit} noValidate data-testid="delivery-webhook">
      <PartHeading title={S.webhook.title} description={S.webhook.description} />
      {settings.webhook ? (
        <Typography variant="body2" sx={{ mb: 1.5, wordBreak: 'break-all' }} data-testid="delivery-webhook-saved">
          {S.webhook.current(WEBHOOK_PLATFORM_LABELS[settings.webhook.platform], settings.webhook.url_hint)}
          {settings.webhook.has_secret ? S.webhook.signed : ''}
        </Typography>
      ) : null}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <TextField
          select
          label={S.webhook.platform}
          value={platform}
          onChange={(event) => setPlatform(event.target.value as WebhookPlatform)}
          sx={{ minWidth: 180 }}
        >
          {WEBHOOK_PLATFORMS.map((value) => (
            <MenuItem key={value} value={value}>
              {WEBHOOK_PLATFORM_LABELS[value]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={S.webhook.url}
          placeholder={S.webhook.placeholders[platform]}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          error={Boolean(fieldError)}
          helperText={fieldError}
          sx={{ flex: '1 1 320px' }}
        />
        {platform !== 'wecom' ? (
          <TextField
            label={S.webhook.secret}
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
            helperText={S.webhook.secretHint}
            sx={{ flex: '1 1 220px' }}
          />
        ) : null}
      </Box>
      {error && !fieldError ? (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {getErrorMessage(error)}
        </Alert>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
        <Button type="submit" variant="outlined" loading={save.isPending} disabled={!url.trim()}>
          {S.webhook.save}
        </Button>
        {settings.webhook ? (
          <>
            <Button variant="outlined" onClick={() => test.mutate()} loading={test.isPending}>
              {S.webhook.test}
            </Button>
            <Button color="inherit" onClick={() => remove.mutate()} loading={remove.isPending}>
              {S.webhook.remove}
            </Button>
          </>
        ) : null}
      </Stack>
    </Box>
  );
}

type ScheduleSelectProps = {
  label: string;
  value: string | number;
  /** [value, what the menu shows] */
  options: readonly (readonly [string | number, string])[];
  onChange: (value: string) => void;
  minWidth: number;
  testId?: string;
};

/** One drop-down of the digest schedule (frequency, weekday, hour, time zone). */
function ScheduleSelect({ label, value, options, onChange, minWidth, testId }: ScheduleSelectProps) {
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth }}
      slotProps={testId ? { htmlInput: { 'data-testid': testId } } : undefined}
    >
      {options.map(([optionValue, optionLabel]) => (
        <MenuItem key={optionValue} value={optionValue}>
          {optionLabel}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The heading of one part of the delivery card (schedule, feed, webhook), with what it does below. */
function PartHeading({ title, description }: { title: string; description?: string }) {
  return (
    <>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: description ? 1 : 1.5 }}>
        {title}
      </Typography>
      {description ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {description}
        </Typography>
      ) : null}
    </>
  );
}
