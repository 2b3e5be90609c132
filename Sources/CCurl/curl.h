/* libcurl's types and constants (the functions are reached through CCurlShim). */
#include <curl/curl.h>
