// The subtraction game S = {1, 3, 4} as a game program in C++ (docs/custom-programs.md): one heap;
// a move takes 1, 3 or 4 stones. The positions of size N: the one heap of N stones, written as N.
// The claim: the values repeat with period 7 (0 1 0 1 2 3 2).
//
//     c++ -O2 -o subtraction examples/games/subtraction.cpp
//     sprague verify custom --game-cmd ./subtraction --max 1000
//
// Answers are buffered and written out only on `flush` (the end of every batch), so the pipe
// is not the limit. A malformed request exits with status 2 and a message on stderr.

#include <iostream>
#include <string>

namespace {

const unsigned PERIOD[7] = {0, 1, 0, 1, 2, 3, 2};
const unsigned long long TAKE[3] = {1, 3, 4};

unsigned long long heap(const std::string& arg) {
    std::size_t used = 0;
    unsigned long long n = std::stoull(arg, &used);
    if (used != arg.size()) throw std::invalid_argument(arg);
    return n;
}

std::string moves(unsigned long long n) {
    std::string out;
    for (unsigned long long take : TAKE) {
        if (take > n) continue;
        if (!out.empty()) out += ' ';
        out += std::to_string(n - take);
    }
    return out;
}

// The answer line to `verb arg`.
std::string answer(const std::string& verb, const std::string& arg) {
    if (verb == "sprague") return "positions moves claim";
    if (verb == "positions") return std::to_string(heap(arg));
    if (verb == "moves") return moves(heap(arg));
    if (verb == "claim") return std::to_string(PERIOD[heap(arg) % 7]);
    throw std::invalid_argument(verb);
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        std::size_t space = line.find(' ');
        std::string verb = line.substr(0, space);
        std::string arg = space == std::string::npos ? "" : line.substr(space + 1);
        if (verb == "flush") {
            std::cout.flush();
            continue;
        }
        try {
            std::cout << answer(verb, arg) << '\n';
        } catch (const std::exception&) {
            std::cerr << "subtraction: cannot answer the request `" << line << "`\n";
            return 2;
        }
    }
    return 0;
}
