import { Page } from '@/components/page/page';
import { UpcomingPageNotice } from '@/components/page/upcoming-page-notice';

/** /login (spec section 2, "Login"): email and password, links to forgot-password and register. */
export function LoginPage() {
  return (
    <Page title="登录" maxWidth="sm">
      <UpcomingPageNotice description="届时可使用邮箱和密码登录。" />
    </Page>
  );
}
