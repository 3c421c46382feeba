/**
 * A User-Agent in plain words for the session list on /my: "Chrome · Windows", "微信 · iPhone",
 * "Safari · macOS". Only the browser and the system are named (never versions): enough to recognise
 * one's own devices. Order matters: Edge, Opera and the Chinese in-app browsers also say "Chrome" or
 * "Safari", and iPadOS and Android also say "Mac OS X" or "Linux".
 */

const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\//i, '微信'],
  [/\bDingTalk\//i, '钉钉'],
  [/\bQQ\//i, 'QQ'],
  [/\bMQQBrowser\/|\bQQBrowser\//i, 'QQ浏览器'],
  [/\bUCBrowser\/|\bUCWEB/i, 'UC浏览器'],
  [/\bQuark\//i, '夸克'],
  [/\bBaiduBoxApp\/|\bbaiduboxapp/i, '百度'],
  [/\bHuaweiBrowser\//i, '华为浏览器'],
  [/\bMiuiBrowser\/|\bXiaoMi\/MiuiBrowser/i, '小米浏览器'],
  [/\bSE 2\.X MetaSr\b|\bSogouMobileBrowser\//i, '搜狗浏览器'],
  [/\b360SE\b|\b360EE\b/i, '360浏览器'],
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|Chrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//i, 'curl'],
  [/^python-requests\/|^Python-urllib\//i, 'Python'],
  [/^node-fetch|^undici|^node\b/i, 'Node.js'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bHarmonyOS\b|\bOpenHarmony\b/i, 'HarmonyOS'],
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export const UNKNOWN_DEVICE = '未知设备';

export function describeUserAgent(userAgent: string | null | undefined): string {
  const text = (userAgent ?? '').trim();
  if (!text) return UNKNOWN_DEVICE;
  const browser = BROWSERS.find(([pattern]) => pattern.test(text))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(text))?.[1];
  if (browser && system) return `${browser} · ${system}`;
  return browser ?? (system ? `${system} 上的浏览器` : UNKNOWN_DEVICE);
}
