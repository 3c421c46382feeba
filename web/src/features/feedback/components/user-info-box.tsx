import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useNow } from '../hooks/use-now';
import { FEEDBACK_STRINGS } from '../strings';
import { buildFeedbackUserInfo, type FeedbackUserInfo } from '../utils/feedback-payload';

const STRINGS = FEEDBACK_STRINGS.userInfo;
const ROWS = [
  'email',
  'userId',
  'userAgent',
  'currentPage',
  'timestamp',
] as const satisfies readonly (keyof FeedbackUserInfo)[];

type UserInfoBoxProps = {
  account: { email: string; id: string } | null;
  userAgent: string;
  currentPage: string;
};

/**
 * The auto-attached user info of the feedback page, shown as it will be sent; the
 * clock ticks here only, so the form does not re-render every second.
 */
export function UserInfoBox({ account, userAgent, currentPage }: UserInfoBoxProps) {
  const now = useNow();
  const info = buildFeedbackUserInfo({ account, userAgent, currentPage, now });
  return (
    <Box
      component="section"
      aria-labelledby="feedback-user-info-title"
      data-testid="feedback-user-info"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: 'grey.50', p: { xs: 2, sm: 2.5 } }}
    >
      <Typography
        id="feedback-user-info-title"
        variant="body2"
        color="text.secondary"
        sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5 }}
      >
        <InfoOutlined fontSize="small" aria-hidden />
        {STRINGS.title}
      </Typography>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '6.5rem 1fr' },
          columnGap: 2,
          rowGap: { xs: 0.25, sm: 1 },
          typography: 'body2',
        }}
      >
        {ROWS.map((key) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Box component="dt" sx={{ color: 'text.secondary', mt: { xs: 1, sm: 0 } }}>
              {STRINGS[key]}
            </Box>
            <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-testid={`feedback-user-info-${key}`}>
              {info[key]}
            </Box>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
