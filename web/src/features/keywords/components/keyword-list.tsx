import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import NotificationsOffOutlined from '@mui/icons-material/NotificationsOffOutlined';
import SearchRounded from '@mui/icons-material/SearchRounded';
import TuneRounded from '@mui/icons-material/TuneRounded';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Keyword } from '@radar/shared';
import { Fragment } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { RelativeDate } from '@/components/dates/relative-date';
import { paths } from '@/config/paths';
import { KEYWORD_STRINGS } from '../strings';
import { describeAlert } from '../utils/keyword-display';

const STRINGS = KEYWORD_STRINGS.list;

type KeywordListProps = {
  keywords: readonly Keyword[];
  onEditAlerts: (keyword: Keyword) => void;
  onRemove: (keyword: Keyword) => void;
};

/** The followed keywords, newest first: alert state, and search, alert settings and remove per keyword. */
export function KeywordList({ keywords, onEditAlerts, onRemove }: KeywordListProps) {
  return (
    <Box component="ul" data-testid="keyword-list" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {keywords.map((keyword, index) => (
        <Fragment key={keyword.id}>
          {index > 0 ? <Divider component="li" aria-hidden /> : null}
          <KeywordRow keyword={keyword} onEditAlerts={onEditAlerts} onRemove={onRemove} />
        </Fragment>
      ))}
    </Box>
  );
}

function KeywordRow({
  keyword,
  onEditAlerts,
  onRemove,
}: {
  keyword: Keyword;
  onEditAlerts: (keyword: Keyword) => void;
  onRemove: (keyword: Keyword) => void;
}) {
  return (
    <Box
      component="li"
      data-testid="keyword-item"
      data-keyword-id={keyword.id}
      data-name={keyword.name}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, py: 1.5 }}
    >
      <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="keyword-name">
            {keyword.name}
          </Typography>
          <Chip
            size="small"
            icon={keyword.alert_enabled ? <NotificationsActiveOutlined /> : <NotificationsOffOutlined />}
            label={describeAlert(keyword)}
            color={keyword.alert_enabled ? 'success' : 'default'}
            variant="outlined"
            data-testid="keyword-alert"
          />
          {keyword.negative_terms.length > 0 ? (
            <Chip
              size="small"
              variant="outlined"
              label={STRINGS.negativeTerms(keyword.negative_terms.length)}
              title={keyword.negative_terms.join('、')}
              data-testid="keyword-negative-terms"
            />
          ) : null}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          <RelativeDate value={keyword.created_at} format={STRINGS.added} />
          {keyword.last_alerted_at ? (
            <>
              {' · '}
              <RelativeDate value={keyword.last_alerted_at} format={KEYWORD_STRINGS.alert.lastAlerted} />
            </>
          ) : null}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', flexShrink: 0, ml: 'auto', mr: -1 }}>
        <Tooltip title={STRINGS.search(keyword.name)}>
          <IconButton
            component={RouterLink}
            to={paths.search.getHref({ q: keyword.name })}
            aria-label={STRINGS.search(keyword.name)}
            data-testid="keyword-search"
          >
            <SearchRounded />
          </IconButton>
        </Tooltip>
        <Tooltip title={STRINGS.settings(keyword.name)}>
          <IconButton
            onClick={() => onEditAlerts(keyword)}
            aria-label={STRINGS.settings(keyword.name)}
            data-testid="keyword-settings"
          >
            <TuneRounded />
          </IconButton>
        </Tooltip>
        <Tooltip title={STRINGS.remove(keyword.name)}>
          <IconButton
            onClick={() => onRemove(keyword)}
            aria-label={STRINGS.remove(keyword.name)}
            color="error"
            data-testid="keyword-remove"
          >
            <DeleteOutlined />
          </IconButton>
        </Tooltip>
      </Box>
    </Box>
  );
}
