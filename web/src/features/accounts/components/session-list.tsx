import ComputerOutlined from '@mui/icons-material/ComputerOutlined';
import SmartphoneOutlined from '@mui/icons-material/SmartphoneOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { Session } from '@radar/shared';
import { useState } from 'react';
import { RelativeDate } from '@/components/dates/relative-date';
import { getErrorMessage } from '@/lib/api-client';
import { getDisplayTimeZone, MINUTE_FIELDS } from '@/lib/relative-time';
import { useEndOtherSessions, useEndSession, useSessions } from '../hooks/use-sessions';
import { SECURITY_STRINGS } from '../security-strings';

const STRINGS = SECURITY_STRINGS.sessions;
const MOBILE = /iPhone|iPad|Android|HarmonyOS/;

const formatDateTime = (iso: string) =>
  new Intl.DateTimeFormat('zh-CN', { timeZone: getDisplayTimeZone(), ...MINUTE_FIELDS }).format(new Date(iso));

/**
 * The account's active logins: device, last activity, when it logged in; this device first and marked.
 * Each other device can be logged out, or all of them at once (after a confirmation).
 */
export function SessionList({ onNotify }: { onNotify: (message: string) => void }) {
  const sessions = useSessions();
  const endOne = useEndSession(onNotify);
  const endOthers = useEndOtherSessions(onNotify);
  const [isConfirming, setIsConfirming] = useState(false);
  const [endingId, setEndingId] = useState<string | null>(null);

  const list = sessions.data?.sessions ?? [];
  const hasOthers = list.some((session) => !session.is_current);
  const failure = endOne.error ?? endOthers.error;

  const confirmEndOthers = () => {
    setIsConfirming(false);
    endOthers.mutate(undefined);
  };

  const renderSession = (session: Session) => (
    <ListItem
      key={session.id}
      divider
      data-testid="session-row"
      secondaryAction={
        session.is_current ? null : (
          <Button
            size="small"
            color="error"
            aria-label={STRINGS.endOneLabel(session.device)}
            loading={endOne.isPending && endingId === session.id}
            disabled={endOne.isPending || endOthers.isPending}
            onClick={() => {
              setEndingId(session.id);
              endOne.mutate(session.id);
            }}
          >
            {STRINGS.endOne}
          </Button>
        )
      }
      sx={{ pl: 0, pr: session.is_current ? 0 : 9 }}
    >
      <ListItemIcon sx={{ minWidth: 40 }}>
        {MOBILE.test(session.device) ? <SmartphoneOutlined /> : <ComputerOutlined />}
      </ListItemIcon>
      <ListItemText
        primary={
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <span>{session.device}</span>
            {session.is_current ? <Chip size="small" color="primary" label={STRINGS.thisDevice} /> : null}
          </Box>
        }
        secondary={
          <>
            <RelativeDate value={session.last_seen_at} moment format={STRINGS.lastSeen} />
            {` · ${STRINGS.created(formatDateTime(session.created_at))}`}
          </>
        }
      />
    </ListItem>
  );

  return (
    <Box component="section" aria-label={STRINGS.title} data-testid="session-list">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {STRINGS.title}
        </Typography>
        <Button
          variant="outlined"
          color="error"
          size="small"
          disabled={!hasOthers || endOne.isPending}
          loading={endOthers.isPending}
          onClick={() => setIsConfirming(true)}
          data-testid="sessions-end-others"
        >
          {STRINGS.endOthers}
        </Button>
      </Box>
      {sessions.isPending ? (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {STRINGS.loading}
        </Typography>
      ) : sessions.isError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {getErrorMessage(sessions.error)}
        </Alert>
      ) : (
        <>
          <List dense>{list.map(renderSession)}</List>
          {hasOthers ? null : (
            <Typography variant="body2" color="text.secondary">
              {STRINGS.noOthers}
            </Typography>
          )}
        </>
      )}
      {failure ? (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="sessions-error">
          {getErrorMessage(failure)}
        </Alert>
      ) : null}
      <Dialog open={isConfirming} onClose={() => setIsConfirming(false)} aria-labelledby="end-others-title">
        <DialogContent>
          <DialogContentText id="end-others-title">{STRINGS.confirmEndOthers}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setIsConfirming(false)}>{STRINGS.cancel}</Button>
          <Button color="error" variant="contained" onClick={confirmEndOthers}>
            {STRINGS.confirm}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
