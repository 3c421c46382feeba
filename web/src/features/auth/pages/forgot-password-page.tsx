import { Page } from '@/components/page/page';
import { UpcomingPageNotice } from '@/components/page/upcoming-page-notice';

/** /forgot-password (spec section 2, "Forgot password"): email, send button with rate-limit countdown. */
export function ForgotPasswordPage() {
  return (
    <Page title="忘记密码" maxWidth="sm">
      <UpcomingPageNotice description="届时可通过邮箱接收密码重置邮件。" />
    </Page>
  );
}
