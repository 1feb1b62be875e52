export {
  createEmailSender,
  type EmailLog,
  type EmailMessage,
  type EmailSender,
  type SendResult,
} from './sender.js';
