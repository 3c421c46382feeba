import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { Page } from '@/components/page/page';
import { paths } from '@/config/paths';

/** Any path outside the route table. */
export function NotFoundRoute() {
  return (
    <Page title="页面不存在" maxWidth="sm">
      <Typography color="text.secondary">你访问的页面不存在，可能是链接有误或页面已被移除。</Typography>
      <Button component={RouterLink} to={paths.home.getHref()} variant="contained" sx={{ mt: 3 }}>
        返回首页
      </Button>
    </Page>
  );
}
