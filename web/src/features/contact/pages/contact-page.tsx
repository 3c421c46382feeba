import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import MailOutlineRounded from '@mui/icons-material/MailOutlineRounded';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { usePublicConfig } from '@/api/public-config';
import { SentPanel } from '@/components/feedback/sent-panel';
import { Page } from '@/components/page/page';
import { IconTile } from '@/components/sections/section-card';
import { paths } from '@/config/paths';
import { ContactForm } from '../components/contact-form';
import { CONTACT_STRINGS as STRINGS } from '../strings';

/** Self-service answers for the questions that usually reach the operator. */
const SELF_HELP = [
  {
    question: '忘记了密码',
    answer: '可以通过注册邮箱接收密码重置邮件，按邮件中的链接设置新密码。',
    linkLabel: '重置密码',
    href: paths.forgotPassword.getHref(),
  },
  {
    question: '没有收到验证码邮件',
    answer: '请先检查垃圾邮件箱；验证码 5 分钟内有效，过期后可在验证页面重新发送。',
    linkLabel: '前往邮箱验证',
    href: paths.verifyEmail.getHref(),
  },
  {
    question: '推荐结果为空或不准确',
    answer: '推荐基于你的英文研究概述。请在“我的”页面完善研究方向，或在推荐设置中降低相似度阈值。',
    linkLabel: '完善研究信息',
    href: paths.my.getHref(),
  },
  {
    question: '功能建议或问题反馈',
    answer: '登录后可以通过意见反馈页面提交问题、建议或使用疑问。',
    linkLabel: '意见反馈',
    href: paths.feedback.getHref(),
  },
] as const;

/**
 * /contact: target of the contact-support links, public. The support address is the
 * server's run-time setting (GET /api/config/); the contact form is there either way, so a visitor
 * without an account, or whose mail does not arrive, always has a way to reach the operators.
 */
export function ContactPage({ defaultEmail = '' }: { defaultEmail?: string }) {
  const navigate = useNavigate();
  const config = usePublicConfig();
  // A failed read (e.g. a backend without the call) is treated as no published address: the form remains.
  const supportEmail = config.data?.supportEmail ?? null;
  const mailto = supportEmail ? `mailto:${supportEmail}?subject=${encodeURIComponent(STRINGS.mailSubject)}` : '';
  const [sent, setSent] = useState<{ email: string; message: string | undefined } | null>(null);
  // A new key gives a fresh, empty form after "write another".
  const [formKey, setFormKey] = useState(0);

  return (
    <Page title={STRINGS.pageTitle} subtitle={STRINGS.pageSubtitle} maxWidth="md">
      <Stack spacing={3}>
        <Card>
          <CardContent>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5} sx={{ alignItems: { sm: 'flex-start' } }}>
              <IconTile size={48}>
                <SupportAgentOutlined />
              </IconTile>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="h5" component="h2">
                  {STRINGS.channel.title}
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 1 }}>
                  {STRINGS.channel.about}
                </Typography>

                {config.isPending ? (
                  <Skeleton
                    variant="rounded"
                    height={40}
                    sx={{ mt: 2.5, maxWidth: 360 }}
                    aria-label={STRINGS.channel.loading}
                    data-testid="contact-support-loading"
                  />
                ) : supportEmail ? (
                  <Stack
                    direction={{ xs: 'column', sm: 'row' }}
                    spacing={2}
                    sx={{ mt: 2.5, alignItems: { sm: 'center' } }}
                  >
                    <Button
                      variant="contained"
                      href={mailto}
                      startIcon={<MailOutlineRounded />}
                      data-testid="contact-mailto"
                    >
                      {STRINGS.channel.sendMail}
                    </Button>
                    <Link href={mailto} sx={{ wordBreak: 'break-all' }} data-testid="contact-support-email">
                      {supportEmail}
                    </Link>
                  </Stack>
                ) : (
                  <Typography sx={{ mt: 2.5 }} data-testid="contact-no-email">
                    {STRINGS.channel.noEmail}
                  </Typography>
                )}
                {supportEmail ? (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
                    {STRINGS.channel.orForm}
                  </Typography>
                ) : null}
                <Typography variant="body2" color="text.secondary" sx={{ mt: supportEmail ? 0.5 : 2 }}>
                  {STRINGS.channel.noPassword}
                </Typography>
              </Box>
            </Stack>
          </CardContent>
        </Card>

        <Card>
          <CardContent sx={{ p: { xs: 2.5, md: 4 } }}>
            {sent ? (
              <SentPanel
                variant="inline"
                testIdPrefix="contact"
                title={STRINGS.thanks.title}
                body={STRINGS.thanks.body(sent.email)}
                labels={STRINGS.thanks}
                message={sent.message}
                onHome={() => navigate(paths.home.getHref())}
                onAgain={() => {
                  setSent(null);
                  setFormKey((key) => key + 1);
                }}
              />
            ) : (
              <>
                <Typography variant="h5" component="h2">
                  {STRINGS.form.title}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 2.5 }}>
                  {STRINGS.form.hint}
                </Typography>
                <ContactForm key={formKey} defaultEmail={defaultEmail} onSent={setSent} />
              </>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardContent>
            <Typography variant="h5" component="h2">
              常见问题
            </Typography>
            <List disablePadding sx={{ mt: 1 }}>
              {SELF_HELP.map((item, index) => (
                <Box component="li" key={item.question} sx={{ listStyle: 'none' }}>
                  {index > 0 ? <Divider component="div" /> : null}
                  <ListItem
                    component="div"
                    disableGutters
                    sx={{
                      py: 2,
                      gap: 2,
                      flexDirection: { xs: 'column', sm: 'row' },
                      alignItems: { xs: 'flex-start', sm: 'center' },
                    }}
                  >
                    <ListItemText
                      primary={item.question}
                      secondary={item.answer}
                      slotProps={{ primary: { sx: { fontWeight: 600 } } }}
                      sx={{ my: 0 }}
                    />
                    <Button
                      component={RouterLink}
                      to={item.href}
                      size="small"
                      endIcon={<ArrowForwardRounded />}
                      sx={{ flexShrink: 0 }}
                    >
                      {item.linkLabel}
                    </Button>
                  </ListItem>
                </Box>
              ))}
            </List>
          </CardContent>
        </Card>
      </Stack>
    </Page>
  );
}
