import { Page } from '@/components/page/page';
import { UpcomingPageNotice } from '@/components/page/upcoming-page-notice';

/** /register (spec section 2, "Register"): email, password with strength hint (lib/password-strength), confirm. */
export function RegisterPage() {
  return (
    <Page title="注册" maxWidth="sm">
      <UpcomingPageNotice description="届时可使用邮箱注册账号，并通过邮件验证码完成验证。" />
    </Page>
  );
}
