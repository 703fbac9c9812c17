// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// DoorwayToken with the token ABI of Tether's USDT on mainnet (TetherToken, 0xdAC17F958D2ee523a2206206994597C13D831ec7),
/// so wallets can be tested against it: `transfer`, `transferFrom` and `approve` return nothing, and
/// `approve` from a non-zero allowance to another non-zero one reverts. USDT's pause, blacklist, fees
/// and owner are left out.
contract DoorwayTetherToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address[] memory holders, uint256 amount) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        for (uint256 i = 0; i < holders.length; i++) {
            balanceOf[holders[i]] += amount;
            totalSupply += amount;
            emit Transfer(address(0), holders[i], amount);
        }
    }

    // USDT: no return value
    function transfer(address to, uint256 value) external {
        _transfer(msg.sender, to, value);
    }

    // USDT: no return value; an allowance must go through 0 before it can change
    function approve(address spender, uint256 value) external {
        require(value == 0 || allowance[msg.sender][spender] == 0, "USDT: approve from a non-zero allowance");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    // USDT: no return value
    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        // the EIP-20 convention (USDT's too): an allowance of type(uint256).max never decreases
        if (allowed != type(uint256).max) {
            require(allowed >= value, "ERC20: insufficient allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "ERC20: transfer to the zero address");
        require(balanceOf[from] >= value, "ERC20: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] -= value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
