import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import MailOutlineRounded from '@mui/icons-material/MailOutlineRounded';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { Page } from '@/components/page/page';
import { APP_NAME } from '@/config/app';
import { env } from '@/config/env';
import { paths } from '@/config/paths';

const MAIL_SUBJECT = `${APP_NAME} 支持请求`;

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
 * /contact (spec section 2): target of the contact-support links. Static: the address comes from the
 * build-time setting VITE_SUPPORT_EMAIL (config/env.ts), never from the server.
 */
export function ContactPage() {
  const { supportEmail } = env;
  const mailto = supportEmail ? `mailto:${supportEmail}?subject=${encodeURIComponent(MAIL_SUBJECT)}` : '';

  return (
    <Page title="联系我们" subtitle="使用中遇到问题？下面的方式可以帮到你。" maxWidth="md">
      <Stack spacing={3}>
        <Card>
          <CardContent>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5} sx={{ alignItems: { sm: 'flex-start' } }}>
              <Box
                aria-hidden
                sx={{
                  display: 'grid',
                  placeItems: 'center',
                  flexShrink: 0,
                  width: 48,
                  height: 48,
                  borderRadius: 2,
                  color: 'primary.main',
                  bgcolor: (theme) => alpha(theme.palette.primary.main, 0.1),
                }}
              >
                <SupportAgentOutlined />
              </Box>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="h5" component="h2">
                  联系本站管理员
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 1 }}>
                  {APP_NAME}
                  是可以自行部署的科研助手，本站由部署它的机构或个人运营。账号、邮件接收、数据与隐私相关的问题，请直接联系本站管理员。
                </Typography>

                {supportEmail ? (
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
                      发送邮件
                    </Button>
                    <Link href={mailto} sx={{ wordBreak: 'break-all' }}>
                      {supportEmail}
                    </Link>
                  </Stack>
                ) : (
                  <Alert severity="info" sx={{ mt: 2.5 }} data-testid="contact-no-email">
                    本站尚未公布支持邮箱。请通过向你提供本站地址的机构或管理员联系运营方。
                    <Box
                      component="span"
                      sx={{ display: 'block', mt: 0.5, color: 'text.secondary', fontSize: '0.8125rem' }}
                    >
                      运营者提示：构建前端时设置环境变量 <code>VITE_SUPPORT_EMAIL</code> 即可在此显示联系邮箱。
                    </Box>
                  </Alert>
                )}
                <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
                  来信时请写明注册邮箱和问题出现的页面，但不要在邮件中附上你的密码。
                </Typography>
              </Box>
            </Stack>
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
