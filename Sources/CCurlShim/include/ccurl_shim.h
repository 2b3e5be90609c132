#ifndef FEEDS_CCURL_SHIM_H
#define FEEDS_CCURL_SHIM_H
/* libcurl for Swift, loaded on first use.

   Why loaded and not linked: libcurl brings some thirty shared libraries with it (TLS, HTTP/2,
   Kerberos, LDAP, IDN, ...). Linked, the dynamic loader maps and relocates all of them at every
   start of `feeds`, ~4 ms, also for the commands that never fetch (parse, read, html, search),
   which is a third of their start-up. So this header takes only curl's types and constants from
   <curl/curl.h>, and the functions Fetching calls go through pointers that `ccurl_load` fills
   from libcurl.so.4 with dlopen, once per process. Without libcurl every call fails cleanly
   (NULL, CURLE_FAILED_INIT, CURLM_INTERNAL_ERROR) and `ccurl_load_error` says why.

   curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
   call: one typed wrapper per argument type. */
#include <curl/curl.h>

/* 1 when libcurl is loaded (loading it on the first call), 0 when it cannot be. */
int ccurl_load(void);
/* Why `ccurl_load` failed (the dynamic loader's message). */
const char *ccurl_load_error(void);

CURLcode ccurl_global_init(long flags);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *h);
const char *ccurl_easy_strerror(CURLcode c);
CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *m);
CURLMcode ccurl_multi_add_handle(CURLM *m, CURL *h);
CURLMcode ccurl_multi_remove_handle(CURLM *m, CURL *h);
CURLMcode ccurl_multi_perform(CURLM *m, int *running);
CURLMcode ccurl_multi_poll(CURLM *m, struct curl_waitfd *fds, unsigned int n, int timeout, int *ready);
CURLMcode ccurl_multi_wakeup(CURLM *m);
CURLMsg *ccurl_multi_info_read(CURLM *m, int *left);
const char *ccurl_multi_strerror(CURLMcode c);
struct curl_slist *ccurl_slist_append(struct curl_slist *l, const char *s);
void ccurl_slist_free_all(struct curl_slist *l);
CURLU *ccurl_url(void);
void ccurl_url_cleanup(CURLU *u);
CURLUcode ccurl_url_set(CURLU *u, CURLUPart p, const char *s, unsigned int f);
CURLUcode ccurl_url_get(const CURLU *u, CURLUPart p, char **s, unsigned int f);
void ccurl_free(void *p);

CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v);
CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode ccurl_easy_setopt_str(CURL *h, CURLoption o, const char *v);
CURLcode ccurl_easy_setopt_ptr(CURL *h, CURLoption o, void *v);
CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);
CURLcode ccurl_easy_setopt_datafn(CURL *h, CURLoption o, ccurl_data_callback f);
typedef int (*ccurl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
CURLcode ccurl_easy_setopt_xferinfofn(CURL *h, CURLoption o, ccurl_xferinfo_callback f);
/* Called before curl opens a socket to `address` (a new connection: every redirect hop that
   needs one, every address happy eyeballs tries); returns the socket, or CURL_SOCKET_BAD to
   refuse that address before any packet is sent. */
typedef curl_socket_t (*ccurl_opensocket_callback)(void *context, curlsocktype purpose, struct curl_sockaddr *address);
CURLcode ccurl_easy_setopt_opensocketfn(CURL *h, CURLoption o, ccurl_opensocket_callback f);
/* Called before each request is sent, on a new or a reused connection (libcurl 7.80+), with
   the address connected to; returns CURL_PREREQFUNC_OK or CURL_PREREQFUNC_ABORT. */
typedef int (*ccurl_prereq_callback)(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port);
CURLcode ccurl_easy_setopt_prereqfn(CURL *h, CURLoption o, ccurl_prereq_callback f);
CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode ccurl_easy_getinfo_str(CURL *h, CURLINFO i, char **v);
CURLcode ccurl_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v);
CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v);
#endif
