import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '@/config/paths';

type UpcomingPageNoticeProps = {
  /** What the finished screen will offer, one sentence. */
  description?: string;
};

/** Stand-in body of a route whose screen is not built yet; says so plainly. */
export function UpcomingPageNotice({ description }: UpcomingPageNoticeProps) {
  return (
    <Alert
      severity="info"
      icon={<ConstructionOutlined />}
      data-testid="upcoming-page-notice"
      action={
        <Button component={RouterLink} to={paths.home.getHref()} color="inherit" size="small">
          返回首页
        </Button>
      }
    >
      该页面将在后续版本中提供。{description}
    </Alert>
  );
}
